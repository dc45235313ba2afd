package headerblock_test

import (
	"bytes"

	"golang.org/x/net/http2"
	xhpack "golang.org/x/net/http2/hpack"
)

// connWriter builds one connection's frame bytes with x/net's Framer, and
// its header blocks with x/net's Encoder (one dynamic table per
// connection) or by hand.
type connWriter struct {
	buf    bytes.Buffer
	fr     *http2.Framer
	encBuf bytes.Buffer
	enc    *xhpack.Encoder
}

func newConnWriter() *connWriter {
	w := &connWriter{}
	w.fr = http2.NewFramer(&w.buf, nil)
	w.fr.AllowIllegalWrites = true
	w.enc = xhpack.NewEncoder(&w.encBuf)
	return w
}

// encode returns the block x/net's Encoder makes of the name, value pairs.
func (w *connWriter) encode(pairs ...string) []byte {
	w.encBuf.Reset()
	for i := 0; i+1 < len(pairs); i += 2 {
		w.enc.WriteField(xhpack.HeaderField{Name: pairs[i], Value: pairs[i+1]})
	}
	return bytes.Clone(w.encBuf.Bytes())
}

// headers writes a block as a HEADERS frame and a CONTINUATION frame per
// further fragment, END_HEADERS on the last.
func (w *connWriter) headers(stream uint32, endStream bool, frags ...[]byte) *connWriter {
	if len(frags) == 0 {
		frags = [][]byte{nil}
	}
	must(w.fr.WriteHeaders(http2.HeadersFrameParam{
		StreamID: stream, BlockFragment: frags[0], EndStream: endStream, EndHeaders: len(frags) == 1,
	}))
	for i, f := range frags[1:] {
		must(w.fr.WriteContinuation(stream, i == len(frags)-2, f))
	}
	return w
}

// open writes a HEADERS frame without END_HEADERS.
func (w *connWriter) open(stream uint32, frag []byte) *connWriter {
	must(w.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: stream, BlockFragment: frag}))
	return w
}

func (w *connWriter) cont(stream uint32, end bool, frag []byte) *connWriter {
	must(w.fr.WriteContinuation(stream, end, frag))
	return w
}

// tableSize writes a SETTINGS frame with SETTINGS_HEADER_TABLE_SIZE, which
// the harness takes as acknowledged.
func (w *connWriter) tableSize(v uint32) *connWriter {
	must(w.fr.WriteSettings(http2.Setting{ID: http2.SettingHeaderTableSize, Val: v}))
	return w
}

func (w *connWriter) ping() *connWriter {
	must(w.fr.WritePing(false, [8]byte{1}))
	return w
}

func (w *connWriter) data(stream uint32) *connWriter {
	must(w.fr.WriteData(stream, false, []byte("x")))
	return w
}

func (w *connWriter) bytes() []byte { return bytes.Clone(w.buf.Bytes()) }

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// Hand-made representations (RFC 7541 §6), strings sent raw.

// hpackInt appends an integer with an n-bit prefix whose other bits are
// flags.
func hpackInt(dst []byte, flags byte, n uint, v uint64) []byte {
	limit := uint64(1)<<n - 1
	if v < limit {
		return append(dst, flags|byte(v))
	}
	dst = append(dst, flags|byte(limit))
	v -= limit
	for v >= 0x80 {
		dst = append(dst, byte(v)|0x80)
		v >>= 7
	}
	return append(dst, byte(v))
}

func hpackString(dst []byte, s string) []byte {
	return append(hpackInt(dst, 0, 7, uint64(len(s))), s...)
}

// lit is a literal field without indexing, with a literal name.
func lit(name, value string) []byte {
	return hpackString(hpackString([]byte{0x00}, name), value)
}

// litIdx is a literal field with incremental indexing and a literal name.
func litIdx(name, value string) []byte {
	return hpackString(hpackString([]byte{0x40}, name), value)
}

// litNever is a never-indexed literal field with a literal name.
func litNever(name, value string) []byte {
	return hpackString(hpackString([]byte{0x10}, name), value)
}

// litNamed is a literal field without indexing whose name is at index i.
func litNamed(i uint64, value string) []byte {
	return hpackString(hpackInt(nil, 0x00, 4, i), value)
}

func cat(bs ...[]byte) []byte { return bytes.Join(bs, nil) }

// h2Param is a HEADERS frame without END_HEADERS, with padding and a
// priority.
func h2Param(stream uint32, frag []byte, pad uint8) http2.HeadersFrameParam {
	return http2.HeadersFrameParam{
		StreamID: stream, BlockFragment: frag, PadLength: pad,
		Priority: http2.PriorityParam{StreamDep: 0, Weight: 15, Exclusive: true},
	}
}
