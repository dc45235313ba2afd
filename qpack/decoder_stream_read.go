package qpack

import "github.com/metapack/metapack/internal/hcode"

// WriteDecoderStream feeds bytes of the peer's decoder stream (RFC 9204
// §4.4), in any fragmentation. An error is an *Error with
// ErrCodeDecoderStream, a connection error: a Section Acknowledgment for
// a stream with no section outstanding, an Insert Count Increment of zero
// or beyond the inserts sent, or an integer over 62 bits.
func (e *Encoder) WriteDecoderStream(p []byte) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.err != nil {
		return &Error{Code: ErrCodeDecoderStream, Err: ErrEncoderPoisoned}
	}
	for len(p) > 0 {
		buf := p
		if e.npart > 0 {
			// Instructions are integers of at most 10 bytes: complete the
			// split one in partial.
			k := min(len(p), len(e.partial)-e.npart)
			copy(e.partial[e.npart:], p[:k])
			buf = e.partial[:e.npart+k]
		}
		n, err := e.decoderInstruction(buf)
		if err != nil {
			e.err = err
			return err
		}
		if n == 0 { // truncated
			if e.npart == 0 {
				e.npart = copy(e.partial[:], p)
			} else {
				e.npart = len(buf)
			}
			return nil
		}
		e.dsOff += int64(n)
		// n counts partial's old bytes too.
		p = p[n-e.npart:]
		e.npart = 0
	}
	return nil
}

// decoderInstruction executes the decoder instruction at the start of p
// and returns its length, or 0 when p ends inside it.
func (e *Encoder) decoderInstruction(p []byte) (int, error) {
	b := p[0]
	prefix := uint(6)
	if b&0x80 != 0 {
		prefix = 7
	}
	v, n, res := hcode.ReadInt(p, prefix, hcode.MaxInt62)
	switch res {
	case hcode.IntTruncated:
		return 0, nil
	case hcode.IntOverflow:
		return 0, e.dsError(ErrIntegerOverflow)
	}
	switch {
	case b&0x80 != 0: // Section Acknowledgment
		return n, e.acknowledge(v)
	case b&0x40 != 0: // Stream Cancellation
		e.cancel(v)
		return n, nil
	default: // Insert Count Increment
		switch {
		case v == 0:
			return 0, e.dsError(ErrZeroIncrement)
		case v > e.inserts-e.known:
			return 0, e.dsError(ErrIncrement)
		}
		e.known += v
		e.recount()
		return n, nil
	}
}

func (e *Encoder) dsError(reason error) error {
	return &Error{Code: ErrCodeDecoderStream, Offset: e.dsOff, Err: reason}
}

// acknowledge takes a Section Acknowledgment: the stream's oldest
// section outstanding is decoded.
func (e *Encoder) acknowledge(stream uint64) error {
	for i := range e.pending {
		if s := e.pending[i]; s.stream == stream {
			e.known = max(e.known, s.required)
			e.pending = append(e.pending[:i], e.pending[i+1:]...)
			e.recount()
			return nil
		}
	}
	return e.dsError(ErrUnknownStream)
}

// cancel takes a Stream Cancellation: the stream's sections will never be
// acknowledged.
func (e *Encoder) cancel(stream uint64) {
	j := 0
	for _, s := range e.pending {
		if s.stream != stream {
			e.pending[j] = s
			j++
		}
	}
	e.pending = e.pending[:j]
	e.recount()
}

// recount counts the sections that may be blocked: at least as many as
// the streams, so the count errs on the safe side of the peer's limit.
// It is linear in the sections outstanding, at most maxPending.
func (e *Encoder) recount() {
	e.blocking = 0
	for _, s := range e.pending {
		if s.required > e.known {
			e.blocking++
		}
	}
}

// streamBlocking reports whether the stream has a section that may be
// blocked already: more references past the Known Received Count block no
// further stream.
func (e *Encoder) streamBlocking(stream uint64) bool {
	for _, s := range e.pending {
		if s.stream == stream && s.required > e.known {
			return true
		}
	}
	return false
}
