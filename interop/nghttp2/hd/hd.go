//go:build nghttp2

package hd

/*
#cgo pkg-config: libnghttp2
#include <stdlib.h>
#include <string.h>
#include <nghttp2/nghttp2.h>

// The helpers below keep pointer arithmetic and casts on the C side, so
// that the Go side needs no unsafe.

static uint8_t *hd_copy_in(const uint8_t *p, size_t n) {
	uint8_t *q = malloc(n ? n : 1);
	if (q != NULL && n > 0) {
		memcpy(q, p, n);
	}
	return q;
}

static void hd_free_bytes(uint8_t *p) { free(p); }
static void hd_free_nvs(nghttp2_nv *p) { free(p); }

static nghttp2_nv *hd_nvs_new(size_t n) {
	return calloc(n ? n : 1, sizeof(nghttp2_nv));
}

static void hd_nv_set(nghttp2_nv *nva, size_t i, uint8_t *arena,
		size_t name_off, size_t namelen, size_t value_off, size_t valuelen,
		uint8_t flags) {
	nva[i].name = arena + name_off;
	nva[i].namelen = namelen;
	nva[i].value = arena + value_off;
	nva[i].valuelen = valuelen;
	nva[i].flags = flags;
}

static ssize_t hd_inflate_at(nghttp2_hd_inflater *inf, nghttp2_nv *nv,
		int *flags, const uint8_t *in, size_t off, size_t inlen) {
	*flags = 0;
	return nghttp2_hd_inflate_hd2(inf, nv, flags, in + off, inlen - off, 1);
}

static const char *hd_name(const nghttp2_nv *nv) { return (const char *)nv->name; }
static const char *hd_value(const nghttp2_nv *nv) { return (const char *)nv->value; }
*/
import "C"

import (
	"errors"
	"fmt"
)

// Available reports whether the package was built against libnghttp2.
const Available = true

// staticLen is the number of RFC 7541 static table entries; nghttp2's
// table accessors count them before the dynamic ones.
const staticLen = 61

// Error is a negative return code of libnghttp2.
type Error struct {
	Op   string // the nghttp2 function that failed
	Code int    // an nghttp2_error value
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s (%d)", e.Op, C.GoString(C.nghttp2_strerror(C.int(e.Code))), e.Code)
}

// ErrHeaderComp is NGHTTP2_ERR_HEADER_COMP, the code of a rejected block.
const ErrHeaderComp = int(C.NGHTTP2_ERR_HEADER_COMP)

// IsHeaderComp reports whether err is NGHTTP2_ERR_HEADER_COMP.
func IsHeaderComp(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == ErrHeaderComp
}

func check(op string, rv C.int) error {
	if rv < 0 {
		return &Error{Op: op, Code: int(rv)}
	}
	return nil
}

// cBytes copies b into C memory; free it with C.hd_free_bytes.
func cBytes(b []byte) *C.uint8_t {
	var p *C.uint8_t
	if len(b) > 0 {
		p = (*C.uint8_t)(&b[0])
	}
	q := C.hd_copy_in(p, C.size_t(len(b)))
	if q == nil {
		panic("hd: out of C memory")
	}
	return q
}

// tableEntry copies an nv that nghttp2 owns into Go strings.
func tableEntry(nv *C.nghttp2_nv) (name, value string) {
	if nv == nil {
		panic("hd: table entry out of range")
	}
	return C.GoStringN(C.hd_name(nv), C.int(nv.namelen)), C.GoStringN(C.hd_value(nv), C.int(nv.valuelen))
}

// Deflater is nghttp2's HPACK encoder. It is not safe for concurrent use.
type Deflater struct {
	p *C.nghttp2_hd_deflater
}

// NewDeflater returns a deflater that never uses more than maxTableSize
// bytes of dynamic table (nghttp2_hd_deflate_new). Until ChangeTableSize
// its table is min(maxTableSize, 4096), and when that is below 4096 its
// first block says so.
func NewDeflater(maxTableSize uint32) (*Deflater, error) {
	d := &Deflater{}
	if err := check("nghttp2_hd_deflate_new", C.nghttp2_hd_deflate_new(&d.p, C.size_t(maxTableSize))); err != nil {
		return nil, err
	}
	return d, nil
}

// Close frees the deflater.
func (d *Deflater) Close() {
	if d.p != nil {
		C.nghttp2_hd_deflate_del(d.p)
		d.p = nil
	}
}

// ChangeTableSize records the peer's new SETTINGS_HEADER_TABLE_SIZE
// (nghttp2_hd_deflate_change_table_size).
func (d *Deflater) ChangeTableSize(settings uint32) error {
	return check("nghttp2_hd_deflate_change_table_size", C.nghttp2_hd_deflate_change_table_size(d.p, C.size_t(settings)))
}

// Deflate appends the header block of fields to dst (nghttp2_hd_deflate_hd,
// with a buffer of nghttp2_hd_deflate_bound bytes).
func (d *Deflater) Deflate(dst []byte, fields []Field) ([]byte, error) {
	var arena []byte
	for _, f := range fields {
		arena = append(arena, f.Name...)
		arena = append(arena, f.Value...)
	}
	carena := cBytes(arena)
	defer C.hd_free_bytes(carena)
	nva := C.hd_nvs_new(C.size_t(len(fields)))
	if nva == nil {
		panic("hd: out of C memory")
	}
	defer C.hd_free_nvs(nva)
	off := 0
	for i, f := range fields {
		var flags C.uint8_t
		if f.NoIndex {
			flags = C.NGHTTP2_NV_FLAG_NO_INDEX
		}
		C.hd_nv_set(nva, C.size_t(i), carena, C.size_t(off), C.size_t(len(f.Name)),
			C.size_t(off+len(f.Name)), C.size_t(len(f.Value)), flags)
		off += len(f.Name) + len(f.Value)
	}
	n := len(fields)
	bound := int(C.nghttp2_hd_deflate_bound(d.p, nva, C.size_t(n)))
	start := len(dst)
	if cap(dst)-start < bound {
		grown := make([]byte, start, start+bound)
		copy(grown, dst)
		dst = grown
	}
	out := dst[start : start+bound]
	rv := C.nghttp2_hd_deflate_hd(d.p, (*C.uint8_t)(&out[0]), C.size_t(len(out)), nva, C.size_t(n))
	if rv < 0 {
		return dst, &Error{Op: "nghttp2_hd_deflate_hd", Code: int(rv)}
	}
	return dst[:start+int(rv)], nil
}

// DynamicTableLen returns the number of dynamic table entries.
func (d *Deflater) DynamicTableLen() int {
	return int(C.nghttp2_hd_deflate_get_num_table_entries(d.p)) - staticLen
}

// DynamicEntry returns dynamic table entry i (0 is the newest), and ok
// false, with empty strings, when i is not below DynamicTableLen.
func (d *Deflater) DynamicEntry(i int) (name, value string, ok bool) {
	if i < 0 || i >= d.DynamicTableLen() {
		return "", "", false
	}
	name, value = tableEntry(C.nghttp2_hd_deflate_get_table_entry(d.p, C.size_t(staticLen+1+i)))
	return name, value, true
}

// DynamicTableSize returns the dynamic table's size and maximum in RFC 7541
// terms.
func (d *Deflater) DynamicTableSize() (size, max uint32) {
	return uint32(C.nghttp2_hd_deflate_get_dynamic_table_size(d.p)), uint32(C.nghttp2_hd_deflate_get_max_dynamic_table_size(d.p))
}

// Inflater is nghttp2's HPACK decoder. It is not safe for concurrent use.
// After an error it rejects every later block, as nghttp2 does.
type Inflater struct {
	p *C.nghttp2_hd_inflater
}

// NewInflater returns an inflater with a 4096-byte table, HTTP/2's
// initial SETTINGS_HEADER_TABLE_SIZE (nghttp2_hd_inflate_new).
func NewInflater() (*Inflater, error) {
	f := &Inflater{}
	if err := check("nghttp2_hd_inflate_new", C.nghttp2_hd_inflate_new(&f.p)); err != nil {
		return nil, err
	}
	return f, nil
}

// Close frees the inflater.
func (f *Inflater) Close() {
	if f.p != nil {
		C.nghttp2_hd_inflate_del(f.p)
		f.p = nil
	}
}

// ChangeTableSize records a new SETTINGS_HEADER_TABLE_SIZE that we
// advertise (nghttp2_hd_inflate_change_table_size). When it is below the
// table's maximum, the next block must start with a size update.
func (f *Inflater) ChangeTableSize(settings uint32) error {
	return check("nghttp2_hd_inflate_change_table_size", C.nghttp2_hd_inflate_change_table_size(f.p, C.size_t(settings)))
}

// Inflate decodes one whole header block (nghttp2_hd_inflate_hd2 with
// in_final set, then nghttp2_hd_inflate_end_headers), appending its fields
// to dst.
func (f *Inflater) Inflate(dst []Field, block []byte) ([]Field, error) {
	in := cBytes(block)
	defer C.hd_free_bytes(in)
	var nv C.nghttp2_nv
	var flags C.int
	off := 0
	for {
		nv = C.nghttp2_nv{}
		rv := C.hd_inflate_at(f.p, &nv, &flags, in, C.size_t(off), C.size_t(len(block)))
		if rv < 0 {
			return dst, &Error{Op: "nghttp2_hd_inflate_hd2", Code: int(rv)}
		}
		off += int(rv)
		if flags&C.NGHTTP2_HD_INFLATE_EMIT != 0 {
			name, value := tableEntry(&nv)
			dst = append(dst, Field{Name: name, Value: value, NoIndex: nv.flags&C.NGHTTP2_NV_FLAG_NO_INDEX != 0})
		}
		if flags&C.NGHTTP2_HD_INFLATE_FINAL != 0 {
			C.nghttp2_hd_inflate_end_headers(f.p)
			return dst, nil
		}
		if flags&C.NGHTTP2_HD_INFLATE_EMIT == 0 && off == len(block) {
			return dst, errors.New("nghttp2_hd_inflate_hd2: block consumed without NGHTTP2_HD_INFLATE_FINAL")
		}
	}
}

// DynamicTableLen returns the number of dynamic table entries.
func (f *Inflater) DynamicTableLen() int {
	return int(C.nghttp2_hd_inflate_get_num_table_entries(f.p)) - staticLen
}

// DynamicEntry returns dynamic table entry i (0 is the newest), and ok
// false, with empty strings, when i is not below DynamicTableLen.
func (f *Inflater) DynamicEntry(i int) (name, value string, ok bool) {
	if i < 0 || i >= f.DynamicTableLen() {
		return "", "", false
	}
	name, value = tableEntry(C.nghttp2_hd_inflate_get_table_entry(f.p, C.size_t(staticLen+1+i)))
	return name, value, true
}

// DynamicTableSize returns the dynamic table's size and maximum in RFC 7541
// terms.
func (f *Inflater) DynamicTableSize() (size, max uint32) {
	return uint32(C.nghttp2_hd_inflate_get_dynamic_table_size(f.p)), uint32(C.nghttp2_hd_inflate_get_max_dynamic_table_size(f.p))
}
