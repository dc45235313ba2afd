package headerblock

import (
	"errors"

	"github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/mdelem"
	"golang.org/x/net/http2"
	xhpack "golang.org/x/net/http2/hpack"
)

// Bounds on one header block's frames and wire bytes, by default.
const (
	// DefaultMaxBlockFrames bounds the HEADERS and CONTINUATION frames
	// of one block: 128 frames carry 2 MiB at the smallest frame size.
	DefaultMaxBlockFrames = 128
	// DefaultMaxBlockBytes bounds the wire bytes of one block.
	DefaultMaxBlockBytes = 4 << 20
)

// A Reader reads the header blocks of one connection from an
// http2.Framer and decodes them with metapack's hpack.Decoder. Leave the
// Framer's ReadMetaHeaders nil, and when ReadFrame returns an
// *http2.HeadersFrame, pass it to ReadBatch or ReadMeta, which read the
// block's CONTINUATION frames from the same Framer.
//
// A Reader is not safe for concurrent use; the Framer's reading side is
// not either. The zero Reader works, with a decoder of its own made by
// hpack.NewDecoder(hpack.DefaultTableSize) and no bounds of its own on a
// block's frames and bytes, as x/net's Framer; NewReader sets them.
type Reader struct {
	dec        *hpack.Decoder
	maxFrames  int
	maxBytes   int
	listErrors bool

	blk block
	// The two forms' field callbacks, made once so that passing them to
	// the decoder allocates nothing.
	toBatch func(mdelem.Field)
	toMeta  func(mdelem.Field)
	dst     *mdelem.Batch
	fields  []xhpack.HeaderField
}

// NewReader returns a Reader that decodes with dec, which keeps the
// connection's HPACK state. Configure dec's table size, interner and
// interned values as usual; the Reader sets its list, field and string
// limits before each block, from the Framer's MaxHeaderListSize, as x/net
// does. A nil dec is taken as hpack.NewDecoder(hpack.DefaultTableSize).
func NewReader(dec *hpack.Decoder) *Reader {
	if dec == nil {
		dec = hpack.NewDecoder(hpack.DefaultTableSize)
	}
	r := &Reader{dec: dec, maxFrames: DefaultMaxBlockFrames, maxBytes: DefaultMaxBlockBytes}
	r.init()
	return r
}

// init makes the field callbacks, and a decoder for the zero Reader,
// whose bounds are 0: none of its own, as x/net's Framer has.
func (r *Reader) init() {
	if r.dec == nil {
		r.dec = hpack.NewDecoder(hpack.DefaultTableSize)
	}
	r.toBatch = func(f mdelem.Field) {
		if r.blk.accept(f, r.dec) && r.dst != nil {
			r.dst.Append(f)
		}
	}
	r.toMeta = func(f mdelem.Field) {
		if r.blk.accept(f, r.dec) {
			r.fields = append(r.fields, headerField(f))
		}
	}
}

// Decoder returns the Reader's decoder, for the settings a connection
// changes as it goes, such as SetAllowedMaxDynamicTableSize once the peer
// has acknowledged a new SETTINGS_HEADER_TABLE_SIZE.
func (r *Reader) Decoder() *hpack.Decoder {
	if r.toBatch == nil {
		r.init()
	}
	return r.dec
}

// SetMaxBlockFrames bounds the HEADERS and CONTINUATION frames of one
// header block; a block with more is a connection error of type
// ENHANCE_YOUR_CALM. 0 means no bound of the Reader's own, as in x/net;
// a negative n restores DefaultMaxBlockFrames.
func (r *Reader) SetMaxBlockFrames(n int) {
	if n < 0 {
		n = DefaultMaxBlockFrames
	}
	r.maxFrames = n
}

// SetMaxBlockBytes bounds the fragment bytes of one header block; a block
// with more is a connection error of type ENHANCE_YOUR_CALM. 0 means no
// bound of the Reader's own, as in x/net; a negative n restores
// DefaultMaxBlockBytes. Either way, as in x/net, a fragment longer than
// twice what is left of the header list size is a connection error of
// type PROTOCOL_ERROR.
func (r *Reader) SetMaxBlockBytes(n int) {
	if n < 0 {
		n = DefaultMaxBlockBytes
	}
	r.maxBytes = n
}

// SetListErrors chooses how a header list over the Framer's
// MaxHeaderListSize is reported. Off, the default, it is reported as
// x/net reports it: the fields up to the limit and truncated set. On, it
// is an http2.StreamError with ErrCodeEnhanceYourCalm whose Cause is
// ErrListTooLarge. Either way the block is decoded to its end, so the
// connection can go on.
func (r *Reader) SetListErrors(on bool) { r.listErrors = on }

// ErrListTooLarge is the Cause of the StreamError that reports a header
// list over the Framer's MaxHeaderListSize, with SetListErrors on.
var ErrListTooLarge = errors.New("headerblock: header list over MaxHeaderListSize")

// ReadBatch reads the header block that hf starts, reading its
// CONTINUATION frames from fr, and appends its fields to dst: the same
// fields, in the same order, that x/net's Framer would put in a
// MetaHeadersFrame. It allocates nothing once dst and the decoder have
// grown to the connection's needs. The fields stay valid until dst is
// Reset. A nil dst drops the fields, still decoding and checking the
// block.
//
// truncated is set when the list went over fr.MaxHeaderListSize: dst
// then holds the fields before the one that went over. An error is an
// http2.ConnectionError, an http2.StreamError (an invalid field: the
// connection goes on), or an error of fr's (see ReadMeta). On a stream
// error dst holds the fields before the invalid one.
func (r *Reader) ReadBatch(dst *mdelem.Batch, fr *http2.Framer, hf *http2.HeadersFrame) (truncated bool, err error) {
	r.dst = dst
	defer func() { r.dst = nil }()
	truncated, _, err = r.read(fr, hf, r.toBatch, false)
	return truncated, err
}

// ReadMeta reads the header block that hf starts, reading its
// CONTINUATION frames from fr, and returns the MetaHeadersFrame that
// x/net's Framer would return from ReadFrame with ReadMetaHeaders set,
// for code written against it. Its strings are the caller's to keep:
// names that are atoms cost nothing, and values are views of copies the
// decoder made (see hpack.Decoder.DecodeFragmentKeep).
//
// Errors are those of x/net's Framer: an http2.ConnectionError with
// ErrCodeCompression when the block does not decode, an
// http2.StreamError with ErrCodeProtocol for an invalid field or
// pseudo-header field (the connection goes on), an
// http2.ConnectionError with ErrCodeProtocol for a CONTINUATION frame
// after an invalid field or one longer than twice what is left of the
// header list size, and fr's own errors from reading the next frame. The
// package documentation lists where the Reader is stricter.
func (r *Reader) ReadMeta(fr *http2.Framer, hf *http2.HeadersFrame) (*http2.MetaHeadersFrame, error) {
	r.fields = nil
	truncated, withFrame, err := r.read(fr, hf, r.toMeta, true)
	mh := &http2.MetaHeadersFrame{HeadersFrame: hf, Fields: r.fields, Truncated: truncated}
	r.fields = nil
	if err != nil && !withFrame {
		return nil, err
	}
	return mh, err
}

// headerField converts a field for a MetaHeadersFrame. The strings are
// views where the bytes are never written again: atoms, and the values
// DecodeFragmentKeep copied for keeping; other names are copied.
func headerField(f mdelem.Field) xhpack.HeaderField {
	hf := xhpack.HeaderField{Sensitive: f.Sensitive()}
	if a := f.Name.Atom(); a != nil {
		hf.Name = a.String()
	} else {
		hf.Name = f.Name.String()
	}
	if a := f.Value.Atom(); a != nil {
		hf.Value = a.String()
	} else if f.Value.Kind() == mdelem.KindOwned {
		hf.Value = f.Value.UnsafeString()
	} else {
		hf.Value = f.Value.String()
	}
	return hf
}

// read reads and decodes the block hf starts, passing each field to fn;
// keep picks DecodeFragmentKeep. withFrame tells which errors x/net's
// Framer returns with a MetaHeadersFrame: the connection errors it finds
// in the block, not a stream error or an error from reading a frame.
func (r *Reader) read(fr *http2.Framer, hf *http2.HeadersFrame, fn func(mdelem.Field), keep bool) (truncated, withFrame bool, err error) {
	if fr == nil || hf == nil {
		return false, false, errNoFrame
	}
	if fr.AllowIllegalReads {
		return false, false, errIllegalReads
	}
	if r.toBatch == nil {
		r.init()
	}
	b := &r.blk
	b.start(hf.StreamID, fr.MaxHeaderListSize)
	d := r.dec
	d.SetMaxHeaderListSize(0) // b accounts for the list, as x/net does
	d.SetMaxFields(0)
	d.SetMaxStringLength(b.maxString)
	frag, last := hf.HeaderBlockFragment(), hf.HeadersEnded()
	frames, bytes := 0, 0
	for {
		// x/net's checks come first, so that where both apply the
		// error is x/net's.
		if int64(len(frag)) > 2*int64(b.headersLeft+b.trailersLeft) {
			return b.truncated, true, http2.ConnectionError(http2.ErrCodeProtocol)
		}
		if b.invalid != nil {
			return b.truncated, true, http2.ConnectionError(http2.ErrCodeProtocol)
		}
		frames++
		bytes += len(frag)
		if (r.maxFrames > 0 && frames > r.maxFrames) || (r.maxBytes > 0 && bytes > r.maxBytes) {
			return b.truncated, true, http2.ConnectionError(http2.ErrCodeEnhanceYourCalm)
		}
		if keep {
			err = d.DecodeFragmentKeep(fn, frag, last)
		} else {
			err = d.DecodeFragmentFunc(fn, frag, last)
		}
		if err != nil && !hpack.IsStreamError(err) {
			return b.truncated, true, http2.ConnectionError(http2.ErrCodeCompression)
		}
		if d.BlockErr() != nil || err != nil {
			// A string over the limit, which is the list's: the decoder
			// passes no more fields, and the list ends here, as any list
			// over the limit does.
			if !b.truncated && b.invalid == nil {
				b.truncate()
			}
		}
		if last {
			break
		}
		f, err := fr.ReadFrame()
		if err != nil {
			return b.truncated, false, err
		}
		cf, ok := f.(*http2.ContinuationFrame)
		if !ok { // fr's frame order check rules this out
			return b.truncated, false, http2.ConnectionError(http2.ErrCodeProtocol)
		}
		frag, last = cf.HeaderBlockFragment(), cf.HeadersEnded()
	}
	if err := b.finish(); err != nil {
		return b.truncated, false, err
	}
	if b.truncated && r.listErrors {
		return true, false, http2.StreamError{StreamID: b.streamID, Code: http2.ErrCodeEnhanceYourCalm, Cause: ErrListTooLarge}
	}
	return b.truncated, false, nil
}

var (
	errNoFrame      = errors.New("headerblock: nil Framer or HEADERS frame")
	errIllegalReads = errors.New("headerblock: Framer.AllowIllegalReads is set")
)
