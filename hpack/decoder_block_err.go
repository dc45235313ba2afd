package hpack

// BlockErr returns the limit the open block has reached so far, as a
// *LimitError, or nil: nil too between blocks. The call that ends the
// block returns the same error. A caller that streams fragments can use it
// to refuse the stream early, as a stream error (see IsStreamError), while
// it still feeds the block's remaining fragments, so that the dynamic
// table stays in step with the peer's.
func (d *Decoder) BlockErr() error {
	if !d.inBlock || d.limitErr == nil {
		return nil
	}
	return d.limitErr
}
