//go:build nghttp3

package ngqpack

/*
#cgo pkg-config: libnghttp3
#include <stdlib.h>
#include <string.h>
#include <nghttp3/nghttp3.h>

// The helpers below keep pointer arithmetic and casts on the C side, so
// that the Go side needs no unsafe.

static uint8_t *nq_copy_in(const uint8_t *p, size_t n) {
	uint8_t *q = malloc(n ? n : 1);
	if (q != NULL && n > 0) {
		memcpy(q, p, n);
	}
	return q;
}

static void nq_free(uint8_t *p) { free(p); }
static void nq_free_nvs(nghttp3_nv *p) { free(p); }

static nghttp3_nv *nq_nvs_new(size_t n) {
	return calloc(n ? n : 1, sizeof(nghttp3_nv));
}

static void nq_nv_set(nghttp3_nv *nva, size_t i, uint8_t *arena,
		size_t name_off, size_t namelen, size_t value_off, size_t valuelen,
		uint8_t flags) {
	nva[i].name = arena + name_off;
	nva[i].namelen = namelen;
	nva[i].value = arena + value_off;
	nva[i].valuelen = valuelen;
	nva[i].flags = flags;
}

// nq_encode encodes nva and returns the section (prefix then field lines)
// and the encoder-stream bytes in malloc'd buffers.
static int nq_encode(nghttp3_qpack_encoder *enc, int64_t stream_id,
		const nghttp3_nv *nva, size_t nvlen,
		uint8_t **sec, size_t *seclen, uint8_t **es, size_t *eslen) {
	const nghttp3_mem *mem = nghttp3_mem_default();
	nghttp3_buf pb, rb, eb;
	nghttp3_buf_init(&pb);
	nghttp3_buf_init(&rb);
	nghttp3_buf_init(&eb);
	int rv = nghttp3_qpack_encoder_encode(enc, &pb, &rb, &eb, stream_id, nva, nvlen);
	if (rv == 0) {
		size_t pl = nghttp3_buf_len(&pb), rl = nghttp3_buf_len(&rb), el = nghttp3_buf_len(&eb);
		*sec = malloc(pl + rl + 1);
		*es = malloc(el + 1);
		if (*sec == NULL || *es == NULL) {
			free(*sec);
			free(*es);
			rv = NGHTTP3_ERR_NOMEM;
		} else {
			if (pl) memcpy(*sec, pb.pos, pl);
			if (rl) memcpy(*sec + pl, rb.pos, rl);
			if (el) memcpy(*es, eb.pos, el);
			*seclen = pl + rl;
			*eslen = el;
		}
	}
	nghttp3_buf_free(&pb, mem);
	nghttp3_buf_free(&rb, mem);
	nghttp3_buf_free(&eb, mem);
	return rv;
}

static nghttp3_ssize nq_read_request(nghttp3_qpack_decoder *dec,
		nghttp3_qpack_stream_context *sctx, nghttp3_qpack_nv *nv, uint8_t *flags,
		const uint8_t *in, size_t off, size_t inlen) {
	*flags = 0;
	return nghttp3_qpack_decoder_read_request(dec, sctx, nv, flags, in + off, inlen - off, 1);
}

static nghttp3_ssize nq_read_encoder(nghttp3_qpack_decoder *dec, const uint8_t *in, size_t off, size_t inlen) {
	return nghttp3_qpack_decoder_read_encoder(dec, in + off, inlen - off);
}

// nq_write_decoder returns the pending decoder-stream bytes in a malloc'd
// buffer.
static uint8_t *nq_write_decoder(nghttp3_qpack_decoder *dec, size_t *len) {
	size_t need = nghttp3_qpack_decoder_get_decoder_streamlen(dec);
	uint8_t *p = malloc(need + 1);
	if (p == NULL) {
		return NULL;
	}
	nghttp3_buf b;
	b.begin = b.pos = b.last = p;
	b.end = p + need;
	nghttp3_qpack_decoder_write_decoder(dec, &b);
	*len = (size_t)(b.last - b.pos);
	return p;
}

static const char *nq_vec_base(nghttp3_vec v) { return (const char *)v.base; }
static const char *nq_chars(const uint8_t *p) { return (const char *)p; }
*/
import "C"

import (
	"errors"
	"fmt"
	"slices"
)

// Available reports whether the package was built against libnghttp3.
const Available = true

// Error is a negative return code of libnghttp3.
type Error struct {
	Op   string // the nghttp3 function that failed
	Code int    // an nghttp3 error value (NGHTTP3_ERR_*)
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s (%d)", e.Op, C.GoString(C.nghttp3_strerror(C.int(e.Code))), e.Code)
}

// The error codes a test may expect.
const (
	ErrDecompressionFailed = int(C.NGHTTP3_ERR_QPACK_DECOMPRESSION_FAILED)
	ErrEncoderStream       = int(C.NGHTTP3_ERR_QPACK_ENCODER_STREAM_ERROR)
	ErrDecoderStream       = int(C.NGHTTP3_ERR_QPACK_DECODER_STREAM_ERROR)
	ErrFatal               = int(C.NGHTTP3_ERR_QPACK_FATAL)
	ErrHeaderTooLarge      = int(C.NGHTTP3_ERR_QPACK_HEADER_TOO_LARGE)
)

// Code returns err's nghttp3 error code, or 0 when err is not an *Error.
func Code(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return 0
}

// Version returns the version string of the libnghttp3 in use.
func Version() string {
	v := C.nghttp3_version(0)
	if v == nil {
		return "?"
	}
	return C.GoString(v.version_str)
}

// cBytes copies b into C memory; free it with C.nq_free.
func cBytes(b []byte) *C.uint8_t {
	var p *C.uint8_t
	if len(b) > 0 {
		p = (*C.uint8_t)(&b[0])
	}
	q := C.nq_copy_in(p, C.size_t(len(b)))
	if q == nil {
		panic("ngqpack: out of C memory")
	}
	return q
}

// goBytes copies n bytes of C memory at p into Go memory and frees p.
func goBytes(p *C.uint8_t, n C.size_t) []byte {
	defer C.nq_free(p)
	if n == 0 {
		return nil
	}
	return []byte(C.GoStringN(C.nq_chars(p), C.int(n)))
}

// Encoder is nghttp3's QPACK encoder. It is not safe for concurrent use.
type Encoder struct {
	p *C.nghttp3_qpack_encoder
}

// NewEncoder returns an encoder whose table never exceeds hardMax bytes
// (nghttp3_qpack_encoder_new). Its table capacity is 0, and it blocks no
// stream, until SetMaxTableCapacity and SetMaxBlockedStreams.
func NewEncoder(hardMax uint64) (*Encoder, error) {
	e := &Encoder{}
	if rv := C.nghttp3_qpack_encoder_new(&e.p, C.size_t(hardMax), C.nghttp3_mem_default()); rv != 0 {
		return nil, &Error{Op: "nghttp3_qpack_encoder_new", Code: int(rv)}
	}
	return e, nil
}

// Close frees the encoder.
func (e *Encoder) Close() {
	if e.p != nil {
		C.nghttp3_qpack_encoder_del(e.p)
		e.p = nil
	}
}

// SetMaxTableCapacity records the peer's SETTINGS_QPACK_MAX_TABLE_CAPACITY
// (nghttp3_qpack_encoder_set_max_dtable_capacity); the encoder's next
// encoder-stream bytes then set its capacity.
func (e *Encoder) SetMaxTableCapacity(n uint64) {
	C.nghttp3_qpack_encoder_set_max_dtable_capacity(e.p, C.size_t(n))
}

// SetMaxBlockedStreams records the peer's SETTINGS_QPACK_BLOCKED_STREAMS
// (nghttp3_qpack_encoder_set_max_blocked_streams).
func (e *Encoder) SetMaxBlockedStreams(n uint64) {
	C.nghttp3_qpack_encoder_set_max_blocked_streams(e.p, C.size_t(n))
}

// NumBlockedStreams returns the number of streams the decoder may be
// blocked on (nghttp3_qpack_encoder_get_num_blocked_streams).
func (e *Encoder) NumBlockedStreams() int {
	return int(C.nghttp3_qpack_encoder_get_num_blocked_streams(e.p))
}

// Encode encodes fields as one field section of stream streamID
// (nghttp3_qpack_encoder_encode). It returns the section (prefix and
// field lines) and the encoder-stream bytes it needs, which go to the
// decoder first.
func (e *Encoder) Encode(streamID int64, fields []Field) (section, encStream []byte, err error) {
	var arena []byte
	for _, f := range fields {
		arena = append(arena, f.Name...)
		arena = append(arena, f.Value...)
	}
	carena := cBytes(arena)
	defer C.nq_free(carena)
	nva := C.nq_nvs_new(C.size_t(len(fields)))
	if nva == nil {
		panic("ngqpack: out of C memory")
	}
	defer C.nq_free_nvs(nva)
	off := 0
	for i, f := range fields {
		var flags C.uint8_t
		if f.Sensitive {
			flags = C.NGHTTP3_NV_FLAG_NEVER_INDEX
		}
		C.nq_nv_set(nva, C.size_t(i), carena, C.size_t(off), C.size_t(len(f.Name)),
			C.size_t(off+len(f.Name)), C.size_t(len(f.Value)), flags)
		off += len(f.Name) + len(f.Value)
	}
	var sec, es *C.uint8_t
	var seclen, eslen C.size_t
	if rv := C.nq_encode(e.p, C.int64_t(streamID), nva, C.size_t(len(fields)), &sec, &seclen, &es, &eslen); rv != 0 {
		return nil, nil, &Error{Op: "nghttp3_qpack_encoder_encode", Code: int(rv)}
	}
	return goBytes(sec, seclen), goBytes(es, eslen), nil
}

// ReadDecoderStream feeds bytes of the peer's decoder stream
// (nghttp3_qpack_encoder_read_decoder).
func (e *Encoder) ReadDecoderStream(p []byte) error {
	if len(p) == 0 {
		return nil
	}
	in := cBytes(p)
	defer C.nq_free(in)
	n := C.nghttp3_qpack_encoder_read_decoder(e.p, in, C.size_t(len(p)))
	if n < 0 {
		return &Error{Op: "nghttp3_qpack_encoder_read_decoder", Code: int(n)}
	}
	if int(n) != len(p) {
		return fmt.Errorf("nghttp3_qpack_encoder_read_decoder read %d of %d bytes", n, len(p))
	}
	return nil
}

// stream is one stream's section in progress at the decoder.
type stream struct {
	ctx    *C.nghttp3_qpack_stream_context
	rest   []byte // the section's bytes not yet read, while blocked
	fields []Field
}

// Decoder is nghttp3's QPACK decoder, with the bookkeeping of blocked
// sections that nghttp3 leaves to its connection layer. It is not safe
// for concurrent use.
type Decoder struct {
	p       *C.nghttp3_qpack_decoder
	streams map[int64]*stream
	blocked []int64 // in the order they blocked
}

// NewDecoder returns a decoder that advertises maxTableCapacity and
// maxBlockedStreams (nghttp3_qpack_decoder_new, then
// nghttp3_qpack_decoder_set_max_dtable_capacity(maxTableCapacity), as
// nghttp3's connection does). nghttp3 does not refuse a blocked section
// beyond maxBlockedStreams itself; see Blocked.
func NewDecoder(maxTableCapacity, maxBlockedStreams uint64) (*Decoder, error) {
	d := &Decoder{streams: map[int64]*stream{}}
	if rv := C.nghttp3_qpack_decoder_new(&d.p, C.size_t(maxTableCapacity), C.size_t(maxBlockedStreams), C.nghttp3_mem_default()); rv != 0 {
		return nil, &Error{Op: "nghttp3_qpack_decoder_new", Code: int(rv)}
	}
	if rv := C.nghttp3_qpack_decoder_set_max_dtable_capacity(d.p, C.size_t(maxTableCapacity)); rv != 0 {
		d.Close()
		return nil, &Error{Op: "nghttp3_qpack_decoder_set_max_dtable_capacity", Code: int(rv)}
	}
	return d, nil
}

// Close frees the decoder and its streams' contexts.
func (d *Decoder) Close() {
	for id := range d.streams {
		d.drop(id)
	}
	if d.p != nil {
		C.nghttp3_qpack_decoder_del(d.p)
		d.p = nil
	}
}

func (d *Decoder) drop(id int64) {
	if s := d.streams[id]; s != nil {
		C.nghttp3_qpack_stream_context_del(s.ctx)
		delete(d.streams, id)
	}
	d.blocked = slices.DeleteFunc(d.blocked, func(b int64) bool { return b == id })
}

// InsertCount returns the number of inserts received
// (nghttp3_qpack_decoder_get_icnt).
func (d *Decoder) InsertCount() uint64 {
	return uint64(C.nghttp3_qpack_decoder_get_icnt(d.p))
}

// ReadEncoderStream feeds bytes of the peer's encoder stream, in any
// fragmentation (nghttp3_qpack_decoder_read_encoder).
func (d *Decoder) ReadEncoderStream(p []byte) error {
	if len(p) == 0 {
		return nil
	}
	in := cBytes(p)
	defer C.nq_free(in)
	for off := 0; off < len(p); {
		n := C.nq_read_encoder(d.p, in, C.size_t(off), C.size_t(len(p)))
		if n < 0 {
			return &Error{Op: "nghttp3_qpack_decoder_read_encoder", Code: int(n)}
		}
		if n == 0 {
			return fmt.Errorf("nghttp3_qpack_decoder_read_encoder read nothing of %d bytes", len(p)-off)
		}
		off += int(n)
	}
	return nil
}

// Decode decodes the whole field section of stream streamID. When the
// section needs inserts not yet received, it returns blocked true and
// keeps the section; Resume finishes it once Unblocked reports the
// stream. A stream holds one section at a time.
func (d *Decoder) Decode(streamID int64, section []byte) (fields []Field, blocked bool, err error) {
	if d.streams[streamID] != nil {
		return nil, false, fmt.Errorf("stream %d: a section is still blocked", streamID)
	}
	s := &stream{rest: slices.Clone(section)}
	if rv := C.nghttp3_qpack_stream_context_new(&s.ctx, C.int64_t(streamID), C.nghttp3_mem_default()); rv != 0 {
		return nil, false, &Error{Op: "nghttp3_qpack_stream_context_new", Code: int(rv)}
	}
	d.streams[streamID] = s
	return d.run(streamID)
}

// Resume goes on with stream streamID's blocked section.
func (d *Decoder) Resume(streamID int64) (fields []Field, blocked bool, err error) {
	if d.streams[streamID] == nil {
		return nil, false, fmt.Errorf("stream %d: no section in progress", streamID)
	}
	return d.run(streamID)
}

// RequiredInsertCount returns the Required Insert Count of stream
// streamID's section in progress (nghttp3_qpack_stream_context_get_ricnt),
// and false when it has none.
func (d *Decoder) RequiredInsertCount(streamID int64) (uint64, bool) {
	s := d.streams[streamID]
	if s == nil {
		return 0, false
	}
	return uint64(C.nghttp3_qpack_stream_context_get_ricnt(s.ctx)), true
}

// Blocked returns the streams whose sections are blocked, in the order
// they blocked.
func (d *Decoder) Blocked() []int64 { return slices.Clone(d.blocked) }

// Unblocked returns the blocked streams whose Required Insert Count the
// inserts received now reach, in the order they blocked.
func (d *Decoder) Unblocked() []int64 {
	var out []int64
	icnt := d.InsertCount()
	for _, id := range d.blocked {
		if ric, _ := d.RequiredInsertCount(id); ric <= icnt {
			out = append(out, id)
		}
	}
	return out
}

func (d *Decoder) run(id int64) ([]Field, bool, error) {
	s := d.streams[id]
	in := cBytes(s.rest)
	defer C.nq_free(in)
	off := 0
	fail := func(err error) ([]Field, bool, error) {
		f := s.fields
		d.drop(id)
		return f, false, err
	}
	for {
		var nv C.nghttp3_qpack_nv
		var flags C.uint8_t
		n := C.nq_read_request(d.p, s.ctx, &nv, &flags, in, C.size_t(off), C.size_t(len(s.rest)))
		if n < 0 {
			return fail(&Error{Op: "nghttp3_qpack_decoder_read_request", Code: int(n)})
		}
		off += int(n)
		if flags&C.NGHTTP3_QPACK_DECODE_FLAG_EMIT != 0 {
			name, value := C.nghttp3_rcbuf_get_buf(nv.name), C.nghttp3_rcbuf_get_buf(nv.value)
			s.fields = append(s.fields, Field{
				Name:      C.GoStringN(C.nq_vec_base(name), C.int(name.len)),
				Value:     C.GoStringN(C.nq_vec_base(value), C.int(value.len)),
				Sensitive: nv.flags&C.NGHTTP3_NV_FLAG_NEVER_INDEX != 0,
			})
			C.nghttp3_rcbuf_decref(nv.name)
			C.nghttp3_rcbuf_decref(nv.value)
		}
		switch {
		case flags&C.NGHTTP3_QPACK_DECODE_FLAG_FINAL != 0:
			if off != len(s.rest) {
				return fail(fmt.Errorf("stream %d: %d bytes after the end of the section", id, len(s.rest)-off))
			}
			return fail(nil)
		case flags&C.NGHTTP3_QPACK_DECODE_FLAG_BLOCKED != 0:
			s.rest = s.rest[off:]
			if !slices.Contains(d.blocked, id) {
				d.blocked = append(d.blocked, id)
			}
			return nil, true, nil
		case flags&C.NGHTTP3_QPACK_DECODE_FLAG_EMIT == 0 && n == 0:
			return fail(fmt.Errorf("stream %d: the decoder stopped with %d bytes unread", id, len(s.rest)-off))
		}
	}
}

// CancelStream abandons stream streamID (nghttp3_qpack_decoder_cancel_stream):
// its blocked section, if any, is dropped, and a Stream Cancellation goes
// on the decoder stream.
func (d *Decoder) CancelStream(streamID int64) error {
	d.drop(streamID)
	if rv := C.nghttp3_qpack_decoder_cancel_stream(d.p, C.int64_t(streamID)); rv != 0 {
		return &Error{Op: "nghttp3_qpack_decoder_cancel_stream", Code: int(rv)}
	}
	return nil
}

// DecoderStream returns the decoder-stream instructions pending since the
// last call (nghttp3_qpack_decoder_write_decoder): Section
// Acknowledgments, Stream Cancellations and Insert Count Increments.
func (d *Decoder) DecoderStream() []byte {
	var n C.size_t
	p := C.nq_write_decoder(d.p, &n)
	if p == nil {
		panic("ngqpack: out of C memory")
	}
	return goBytes(p, n)
}
