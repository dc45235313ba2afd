package headerblock

import (
	"errors"
	"fmt"
	"math"

	compat "github.com/metapack/metapack/compat/hpack"
	"github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/mdelem"
	"golang.org/x/net/http2"
	xhpack "golang.org/x/net/http2/hpack"
)

// The least default bounds on one header block's frames and bytes. A
// legitimate block is no longer than its header list, so by default the
// Reader allows the larger of DefaultMaxBlockBytes and twice the Framer's
// MaxHeaderListSize, in the larger of DefaultMaxBlockFrames and that many
// bytes' worth of 16 KiB frames.
const (
	DefaultMaxBlockFrames = 128
	DefaultMaxBlockBytes  = 4 << 20
)

// A Reader reads the header blocks of one connection from an
// http2.Framer and decodes them with metapack's hpack.Decoder: pass each
// *http2.HeadersFrame that ReadFrame returns to ReadBatch or ReadMeta.
// A Reader is not safe for concurrent use. The zero Reader is
// NewReader(nil).
type Reader struct {
	dec                 *hpack.Decoder
	maxFrames           int
	maxBytes            int
	streamErrors        bool
	longStringConnError bool
	blk                 block
	detail              error
	scratch             *mdelem.Batch // ReadMeta's batch, and ReadBatch's when it is given none
	fieldsPerList       int           // the fields of the last MetaHeadersFrame, for the next one's slice
}

// NewReader returns a Reader that decodes with dec, which keeps the
// connection's HPACK state. Before each block the Reader sets dec's list
// size and string limits from the Framer's MaxHeaderListSize, as x/net
// does; dec's field limit stays in force, and a list over it is reported
// as over the list size. A nil dec is taken as
// hpack.NewDecoder(hpack.DefaultTableSize) with no field limit.
func NewReader(dec *hpack.Decoder) *Reader {
	r := &Reader{dec: dec}
	r.init()
	return r
}

func (r *Reader) init() {
	if r.dec == nil {
		r.dec = hpack.NewDecoder(hpack.DefaultTableSize)
		r.dec.SetMaxFields(-1)
	}
}

// Decoder returns the Reader's decoder, for the settings a connection
// changes as it goes.
func (r *Reader) Decoder() *hpack.Decoder {
	r.init()
	return r.dec
}

// SetMaxBlockFrames bounds the HEADERS and CONTINUATION frames of one
// header block; a block with more is a connection error of type
// ENHANCE_YOUR_CALM. 0 restores the default (see DefaultMaxBlockFrames);
// a negative n means no bound, as in x/net.
func (r *Reader) SetMaxBlockFrames(n int) { r.maxFrames = n }

// SetMaxBlockBytes bounds the fragment bytes of one header block as
// SetMaxBlockFrames bounds its frames (see DefaultMaxBlockBytes).
func (r *Reader) SetMaxBlockBytes(n int) { r.maxBytes = n }

// SetConnErrorOnLongString makes a name or value longer than the
// Framer's MaxHeaderListSize end the connection with a ConnectionError of
// type COMPRESSION_ERROR, as x/net's Framer does (see StringOverList in
// the package documentation). Off by default.
func (r *Reader) SetConnErrorOnLongString(on bool) { r.longStringConnError = on }

// SetStreamErrors chooses how the Reader reports what concerns one
// stream. Off, the default, it behaves as x/net's Framer: a list over
// MaxHeaderListSize is reported as truncated, and a CONTINUATION frame
// after the list went over it or after an invalid field, or a fragment
// over twice what is left of the list size, is a ConnectionError with
// ErrCodeProtocol.
//
// On, the Reader reads every block to its end, within SetMaxBlockFrames
// and SetMaxBlockBytes, so that the dynamic table stays in step and the
// connection goes on: a list over MaxHeaderListSize is a StreamError with
// ErrCodeEnhanceYourCalm and Cause ErrListTooLarge (answer with a 431 or
// RST_STREAM, RFC 9113 §10.5.1), an invalid field a StreamError with
// ErrCodeProtocol.
func (r *Reader) SetStreamErrors(on bool) { r.streamErrors = on }

// ErrListTooLarge is the Cause of the StreamError, with SetStreamErrors
// on, for a header list over the Framer's MaxHeaderListSize.
var ErrListTooLarge = errors.New("headerblock: header list over MaxHeaderListSize")

// ErrorDetail returns the reason for the last connection error that the
// Reader itself found, as the Framer's ErrorDetail does, or nil; the next
// read clears it. After a StreamError for an invalid field it is the
// Cause worded as x/net's Framer words it, such as
// `invalid header field value for "x-a"`.
func (r *Reader) ErrorDetail() error { return r.detail }

// ReadBatch reads the header block that hf starts, reading its
// CONTINUATION frames from fr, and appends to dst the fields x/net's
// Framer would put in a MetaHeadersFrame, valid until dst is Reset. It
// allocates nothing once dst and the decoder have grown. A nil dst drops
// the fields, still decoding and checking the block.
//
// truncated is set when the list went over fr.MaxHeaderListSize. Errors
// are as for ReadMeta. Either way dst holds the fields before the one
// that went over or was invalid.
func (r *Reader) ReadBatch(dst *mdelem.Batch, fr *http2.Framer, hf *http2.HeadersFrame) (truncated bool, err error) {
	if dst == nil {
		dst = r.scratchBatch()
		defer dst.Reset()
	}
	truncated, _, err = r.read(fr, hf, dst)
	return truncated, err
}

func (r *Reader) scratchBatch() *mdelem.Batch {
	if r.scratch == nil {
		r.scratch = mdelem.NewBatch(0, 0)
	}
	return r.scratch
}

// ReadMeta reads the header block that hf starts, reading its
// CONTINUATION frames from fr, and returns the MetaHeadersFrame that
// x/net's Framer would return from ReadFrame with ReadMetaHeaders set.
// Its strings are the caller's to keep, made as compat/hpack's
// AppendFromBatch makes them.
//
// Errors are x/net's: a ConnectionError with ErrCodeCompression when the
// block does not decode, a StreamError with ErrCodeProtocol for an
// invalid field or set of pseudo-header fields, a ConnectionError with
// ErrCodeProtocol for a CONTINUATION frame that x/net refuses (see
// SetStreamErrors), and fr's own errors. A connection error the block
// causes comes with the MetaHeadersFrame read so far.
func (r *Reader) ReadMeta(fr *http2.Framer, hf *http2.HeadersFrame) (*http2.MetaHeadersFrame, error) {
	b := r.scratchBatch()
	defer b.Reset()
	truncated, withFrame, err := r.read(fr, hf, b)
	if err != nil && !withFrame {
		return nil, err
	}
	fields := compat.AppendFromBatch(make([]xhpack.HeaderField, 0, max(r.fieldsPerList, b.Len())), b)
	r.fieldsPerList = len(fields)
	return &http2.MetaHeadersFrame{HeadersFrame: hf, Fields: fields, Truncated: truncated}, err
}

// read reads and decodes the block hf starts into dst. withFrame is set
// for the errors x/net's Framer returns with a MetaHeadersFrame: the
// connection errors it finds in the block.
func (r *Reader) read(fr *http2.Framer, hf *http2.HeadersFrame, dst *mdelem.Batch) (truncated, withFrame bool, err error) {
	r.detail = nil
	if fr == nil || hf == nil {
		return false, false, errNoFrame
	}
	if fr.AllowIllegalReads {
		return false, false, errIllegalReads
	}
	r.init()
	b := &r.blk
	b.start(hf.StreamID, fr.MaxHeaderListSize)
	d := r.dec
	// The decoder's bound on the list only keeps memory in check, at more
	// than b, which accounts for it as x/net does, can accept.
	d.SetMaxHeaderListSize(b.maxDecoded())
	d.SetMaxStringLength(b.maxString)
	frag, last := hf.HeaderBlockFragment(), hf.HeadersEnded()
	// The bounds in force, 0 for none; b.headersLeft is the list limit.
	maxFrames, maxBytes := max(r.maxFrames, 0), max(r.maxBytes, 0)
	dflt := int(min(max(DefaultMaxBlockBytes, 2*uint64(b.headersLeft)), math.MaxInt))
	if r.maxBytes == 0 {
		maxBytes = dflt
	}
	if r.maxFrames == 0 {
		maxFrames = max(DefaultMaxBlockFrames, dflt/minFrameSize)
	}
	frames, bytes := 0, 0
	scanned := dst.Len() // dst's fields already checked
	for {
		// x/net's checks first, so that its error wins where both apply.
		if !r.streamErrors {
			if int64(len(frag)) > 2*int64(b.headersLeft+b.trailersLeft) {
				return b.truncated, true, r.connError(http2.ErrCodeProtocol, "header block fragment of %d bytes, over twice what is left of the header list size", len(frag))
			}
			if b.invalid != nil {
				return b.truncated, true, r.connError(http2.ErrCodeProtocol, "CONTINUATION after an invalid field: %v", b.invalid)
			}
		}
		frames++
		bytes += len(frag)
		if maxFrames > 0 && frames > maxFrames {
			return b.truncated, true, r.connError(http2.ErrCodeEnhanceYourCalm, "header block over %d frames", maxFrames)
		}
		if maxBytes > 0 && bytes > maxBytes {
			return b.truncated, true, r.connError(http2.ErrCodeEnhanceYourCalm, "header block over %d bytes", maxBytes)
		}
		switch {
		case b.truncated || b.invalid != nil:
			err = d.DecodeFragment(nil, frag, last) // the list has ended
		default:
			err = d.DecodeFragment(dst, frag, last)
			scanned = r.scan(dst, scanned)
		}
		if err != nil && !hpack.IsStreamError(err) {
			return b.truncated, true, r.connError(http2.ErrCodeCompression, "%v", err)
		}
		if r.longStringConnError && (errors.Is(err, hpack.ErrStringLength) || errors.Is(d.BlockErr(), hpack.ErrStringLength)) {
			return b.truncated, true, r.connError(http2.ErrCodeCompression, "%v", hpack.ErrStringLength)
		}
		if (err != nil || d.BlockErr() != nil) && !b.truncated && b.invalid == nil {
			// A string or the list over the decoder's limits: the
			// decoder passes no later field, and the list ends here,
			// as any list over the limit does.
			b.truncate()
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
			return b.truncated, false, r.connError(http2.ErrCodeProtocol, "%T in a header block", f)
		}
		frag, last = cf.HeaderBlockFragment(), cf.HeadersEnded()
	}
	if err := b.finish(); err != nil {
		var se http2.StreamError
		var fe *FieldError
		if errors.As(err, &se) && errors.As(se.Cause, &fe) {
			r.detail = framerDetail(fe)
		}
		return b.truncated, false, err
	}
	if b.truncated && r.streamErrors {
		return true, false, http2.StreamError{StreamID: b.streamID, Code: http2.ErrCodeEnhanceYourCalm, Cause: ErrListTooLarge}
	}
	return b.truncated, false, nil
}

// scan checks dst's fields from index i on, drops the first that does
// not belong in the list with those after it, and returns where to go on.
func (r *Reader) scan(dst *mdelem.Batch, i int) int {
	for ; i < dst.Len(); i++ {
		if f := dst.At(i); !r.blk.accept(&f) {
			dst.Truncate(i)
			return i
		}
	}
	return i
}

// connError records the reason for a connection error the Reader found.
func (r *Reader) connError(code http2.ErrCode, format string, args ...any) error {
	r.detail = fmt.Errorf("headerblock: "+format, args...)
	return http2.ConnectionError(code)
}

var (
	errNoFrame      = errors.New("headerblock: nil Framer or HEADERS frame")
	errIllegalReads = errors.New("headerblock: Framer.AllowIllegalReads is set")
)
