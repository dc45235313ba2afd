package headerblock

import (
	"errors"
	"strconv"

	"github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/mdelem"
	"golang.org/x/net/http2"
)

// Frame payload sizes RFC 9113 §4.2 allows for SETTINGS_MAX_FRAME_SIZE.
const (
	minFrameSize = 1 << 14
	maxFrameSize = 1<<24 - 1
)

// A Writer encodes header lists with metapack's hpack.Encoder and writes
// them to an http2.Framer as a HEADERS frame and the CONTINUATION frames
// it needs. One per connection; not safe for concurrent use.
type Writer struct {
	enc       *hpack.Encoder
	buf       []byte
	frameSize uint32
	maxList   uint32
}

// NewWriter returns a Writer that encodes with enc, or with
// hpack.NewEncoder(hpack.DefaultTableSize) for a nil enc. It starts with
// HTTP/2's initial 16,384-byte frames and no header list limit.
func NewWriter(enc *hpack.Encoder) *Writer {
	if enc == nil {
		enc = hpack.NewEncoder(hpack.DefaultTableSize)
	}
	return &Writer{enc: enc, frameSize: minFrameSize}
}

// Encoder returns the Writer's encoder.
func (w *Writer) Encoder() *hpack.Encoder {
	if w.enc == nil { // the zero Writer
		w.enc = hpack.NewEncoder(hpack.DefaultTableSize)
	}
	return w.enc
}

// SetMaxFrameSize takes the peer's SETTINGS_MAX_FRAME_SIZE: no frame
// payload the Writer writes is longer. It is clamped to RFC 9113's
// bounds, 16,384 to 2^24-1.
func (w *Writer) SetMaxFrameSize(v uint32) { w.frameSize = clampFrameSize(v) }

// SetMaxHeaderListSize takes the peer's SETTINGS_MAX_HEADER_LIST_SIZE:
// WriteBatch refuses a list over it. 0 means no limit, as before the
// peer sends the setting.
func (w *Writer) SetMaxHeaderListSize(v uint32) { w.maxList = v }

// A ListSizeError reports a header list over the peer's
// SETTINGS_MAX_HEADER_LIST_SIZE, which WriteBatch did not send.
type ListSizeError struct {
	Size  int    // the list's size, counted as RFC 9113 §6.5.2 does
	Limit uint32 // the peer's limit
}

func (e *ListSizeError) Error() string {
	return "headerblock: header list of " + strconv.Itoa(e.Size) + " bytes over the peer's limit of " + strconv.FormatUint(uint64(e.Limit), 10)
}

// CheckListSize returns a *ListSizeError if b's header list is over the
// peer's SETTINGS_MAX_HEADER_LIST_SIZE, limit; 0 means no limit.
func CheckListSize(b *mdelem.Batch, limit uint32) error {
	if b == nil || limit == 0 {
		return nil
	}
	if n := b.Size(); uint64(n) > uint64(limit) {
		return &ListSizeError{Size: n, Limit: limit}
	}
	return nil
}

// WriteBatch writes b's fields as the header block of stream streamID,
// ending the stream if endStream is set. A list over the peer's
// SETTINGS_MAX_HEADER_LIST_SIZE is not encoded or written: the error is a
// *ListSizeError and the encoder's state is unchanged. Other errors are
// fr's.
func (w *Writer) WriteBatch(fr *http2.Framer, streamID uint32, endStream bool, b *mdelem.Batch) error {
	if err := CheckListSize(b, w.maxList); err != nil {
		return err
	}
	if b == nil {
		b = emptyBatch
	}
	if fr == nil {
		return errNoFramer
	}
	w.buf = w.Encoder().AppendBlock(w.buf[:0], b)
	return WriteBlock(fr, streamID, endStream, w.buf, w.frameSize)
}

var emptyBatch = mdelem.NewBatch(0, 0)

var errNoFramer = errors.New("headerblock: nil Framer")

// WriteBlock writes an encoded header block for stream streamID as a
// HEADERS frame, with END_STREAM if endStream is set, and CONTINUATION
// frames, none with a payload over maxFrameSize (clamped as
// SetMaxFrameSize does). Errors are fr's.
func WriteBlock(fr *http2.Framer, streamID uint32, endStream bool, block []byte, maxFrameSize uint32) error {
	if fr == nil {
		return errNoFramer
	}
	n := int(clampFrameSize(maxFrameSize))
	frag := block[:min(n, len(block))]
	block = block[len(frag):]
	err := fr.WriteHeaders(http2.HeadersFrameParam{
		StreamID:      streamID,
		BlockFragment: frag,
		EndStream:     endStream,
		EndHeaders:    len(block) == 0,
	})
	for err == nil && len(block) > 0 {
		frag = block[:min(n, len(block))]
		block = block[len(frag):]
		err = fr.WriteContinuation(streamID, len(block) == 0, frag)
	}
	return err
}

func clampFrameSize(v uint32) uint32 {
	return min(max(v, minFrameSize), maxFrameSize)
}
