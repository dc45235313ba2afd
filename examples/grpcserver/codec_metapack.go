package main

import (
	"encoding/base64"
	"strconv"
	"strings"
	"time"

	"github.com/metapack/metapack/grpcmeta"
	"github.com/metapack/metapack/headerblock"
	"github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/intern"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
	"golang.org/x/net/http2"
)

// metapackCodec is the header codec built on this module's headerblock,
// hpack and mdelem packages: a headerblock.Reader reads each header block
// from the Framer into a reusable batch whose names are atoms (static, or
// interned in the connection's table), and responses are built from atoms
// and the request's own fields, without copying them.
type metapackCodec struct {
	r    *headerblock.Reader
	enc  *hpack.Encoder
	cur  *mdelem.Batch   // the block just read (the reader goroutine's)
	resp *mdelem.Batch   // scratch for the block being encoded
	free []*mdelem.Batch // batches of released requests (under conn.mu)
	num  []byte          // scratch for numbers
	// dec and enc64 are scratch for echoed binary metadata, decoded and
	// re-encoded, and for grpc-status and grpc-message (under conn.mu).
	dec, enc64 []byte
}

// Atoms of the fields the server sends (grpcmeta.AppendStatusTrailers
// has those of grpc-status and grpc-message).
var (
	atomStatus      = staticdata.KeyStatus.Atom()
	atomContentType = staticdata.KeyContentType.Atom()
	atomContentLen  = staticdata.KeyContentLength.Atom()
	atomAppGRPC     = mustAtom("application/grpc")
	atomStatus200   = mustAtom("200")
)

func mustAtom(s string) *staticdata.Atom {
	a := staticdata.Lookup(s)
	if a == nil {
		panic("grpcserver: no static atom for " + s)
	}
	return a
}

// nameInternLimits bound the table a connection's decoder interns the
// client's names in (and the values of the keys hpack interns by
// default): it takes at most 32 KiB of entries, plus a 4 KiB index made
// with it. Once it is full, or for a longer string, the decoder copies
// the string into the request's batch as it does without a table.
var nameInternLimits = intern.Limits{MaxEntries: 256, MaxBytes: 32 << 10, MaxLen: 64}

const textContentType = "text/plain; charset=utf-8"

func newMetapackCodec(lim codecLimits) *metapackCodec {
	dec := hpack.NewDecoder(hpack.DefaultTableSize)
	// Names the client sends that are not static become atoms of the
	// connection's own table: an indexed field then copies no name
	// bytes, and the response's echoed names are atoms too, which the
	// encoder neither hashes nor copies.
	dec.SetInterner(intern.New(nameInternLimits))
	// The Reader sets the decoder's list and string limits before each
	// block from the Framer's MaxHeaderListSize: a string is never longer
	// than the list it is in, so every list within the advertised size
	// decodes, and a longer string makes the list too large, a stream
	// error. The decoder's field limit stays ours, and a list over it is
	// reported as over the list size: 431 too.
	dec.SetMaxFields(lim.maxFields)
	r := headerblock.NewReader(dec)
	// A list over the limits, or an invalid field, is a stream error
	// however many CONTINUATION frames follow: the Reader reads every
	// block to its end, within the frame and byte bounds, and the
	// connection goes on (RFC 9113 §10.5.1).
	r.SetStreamErrors(true)
	r.SetMaxBlockFrames(lim.maxBlockFrames)
	r.SetMaxBlockBytes(lim.maxBlockBytes)
	return &metapackCodec{
		r:    r,
		enc:  hpack.NewEncoder(hpack.DefaultTableSize),
		cur:  newBatch(),
		resp: newBatch(),
	}
}

func newBatch() *mdelem.Batch { return mdelem.NewBatch(16, 512) }

// setFramer leaves fr's ReadMetaHeaders nil: ReadFrame returns each
// HEADERS frame, and the Reader reads the rest of its block.
func (m *metapackCodec) setFramer(fr *http2.Framer) {}

func (m *metapackCodec) readHeaders(fr *http2.Framer, f http2.Frame, _ error) (bool, error) {
	m.cur.Reset()
	truncated, err := m.r.ReadBatch(m.cur, fr, f.(*http2.HeadersFrame))
	if err != nil {
		m.cur.Reset()
	}
	return truncated, err
}

func (m *metapackCodec) errorDetail() error { return m.r.ErrorDetail() }

func (m *metapackCodec) discardBlock() { m.cur.Reset() }

func (m *metapackCodec) takeRequest() (any, reqInfo, error) {
	b := m.cur
	if n := len(m.free); n > 0 {
		m.cur, m.free = m.free[n-1], m.free[:n-1]
	} else {
		m.cur = newBatch()
	}
	info, err := requestInfo(b)
	if err != nil {
		m.releaseRequest(b)
		return nil, reqInfo{}, err
	}
	return b, info, nil
}

// requestInfo validates b as a request and picks out the fields the
// server acts on: O(1) lookups by key ID, no copies.
func requestInfo(b *mdelem.Batch) (reqInfo, error) {
	if err := grpcmeta.ValidateRequest(b); err != nil {
		return reqInfo{}, err
	}
	var info reqInfo
	f, _ := b.Get(staticdata.KeyMethod)
	info.method = f.Value.UnsafeString()
	f, _ = b.Get(staticdata.KeyPath)
	if info.path = f.Value.UnsafeString(); info.path == "" {
		return reqInfo{}, errEmptyPath
	}
	// content-type and grpc-encoding values are atoms when they are
	// static or interned (the decoder interns both keys' values): ValueOf
	// parses each distinct one once and finds it again by pointer.
	if f, ok := b.Get(staticdata.KeyContentType); ok {
		info.contentType = grpcmeta.ValueOf(f.Value).ContentType()
	}
	if f, ok := b.Get(staticdata.KeyGrpcEncoding); ok && f.Value.Len() > 0 {
		info.grpcEncoding, info.hasEncoding = f.Value.UnsafeString(), true
		info.coding = grpcmeta.ValueOf(f.Value).Coding()
	}
	if f, ok := b.Get(staticdata.KeyGrpcTimeout); ok {
		info.grpcTimeout, info.hasTimeout = f.Value.UnsafeString(), true
	}
	info.contentLength = -1
	if f, ok := b.Get(staticdata.KeyContentLength); ok {
		n, err := parseContentLength(f.Value.UnsafeString())
		if err != nil {
			return reqInfo{}, err
		}
		info.contentLength = n
	}
	return info, nil
}

func (m *metapackCodec) releaseRequest(h any) {
	b := h.(*mdelem.Batch)
	b.Reset()
	m.free = append(m.free, b)
}

func (m *metapackCodec) takeTrailers() error {
	defer m.cur.Reset()
	for _, f := range m.cur.All() {
		if strings.HasPrefix(f.Name.UnsafeString(), ":") {
			return errPseudoInTrailers
		}
	}
	return nil
}

func (m *metapackCodec) ackHeaderTableSize(v uint32)     { m.r.Decoder().SetAllowedMaxDynamicTableSize(v) }
func (m *metapackCodec) setPeerHeaderTableSize(v uint32) { m.enc.SetMaxDynamicTableSize(v) }

func (m *metapackCodec) appendGRPCHeaders(dst []byte, req any, status int, msg string) []byte {
	r := m.resp
	r.Reset()
	r.Append(mdelem.From(atomStatus, atomStatus200))
	r.Append(mdelem.From(atomContentType, atomAppGRPC))
	if req != nil {
		for _, f := range req.(*mdelem.Batch).All() {
			if a := f.Name.Atom(); a != nil && a.Key() != staticdata.KeyUnknown || !echoed(f.Name.UnsafeString()) {
				continue
			}
			if !grpcmeta.IsBinary(f.Name.UnsafeBytes()) {
				// Names are atoms (static or interned), values bytes in
				// the request's arena: Append takes both as they are.
				r.Append(f)
				continue
			}
			// A binary value is decoded and written back canonically:
			// base64 without padding, one field per value.
			name := f.Name.UnsafeString()
			m.dec = eachBinary(m.dec, name, f.Value.UnsafeString(), func(dec []byte) {
				if f.Sensitive() { // AppendBinary has no never-indexed form
					m.enc64 = base64.RawStdEncoding.AppendEncode(m.enc64[:0], dec)
					r.Append(mdelem.From(mdelem.BorrowString(name), mdelem.Borrowed(m.enc64)).WithSensitive(true))
					return
				}
				m.enc64, _ = grpcmeta.AppendBinary(r, m.enc64, name, dec)
			})
		}
	}
	if status >= 0 {
		m.enc64, _ = grpcmeta.AppendStatusTrailers(r, m.enc64, uint32(status), msg)
	}
	return m.enc.AppendBlock(dst, r)
}

func (m *metapackCodec) echoSize(req any) int {
	n := 0
	for _, f := range req.(*mdelem.Batch).All() {
		if a := f.Name.Atom(); (a == nil || a.Key() == staticdata.KeyUnknown) && echoed(f.Name.UnsafeString()) {
			var size int
			m.dec, size = echoFieldSize(m.dec, f.Name.UnsafeString(), f.Value.UnsafeString())
			n += size
		}
	}
	return n
}

func (m *metapackCodec) eachMetadata(req any, fn func(name, value string)) {
	for _, f := range req.(*mdelem.Batch).All() {
		if !strings.HasPrefix(f.Name.UnsafeString(), ":") {
			fn(f.Name.UnsafeString(), f.Value.UnsafeString())
		}
	}
}

func (m *metapackCodec) appendGRPCTrailers(dst []byte, status int, msg string) []byte {
	r := m.resp
	r.Reset()
	m.enc64, _ = grpcmeta.AppendStatusTrailers(r, m.enc64, uint32(status), msg)
	return m.enc.AppendBlock(dst, r)
}

func (m *metapackCodec) appendTextHeaders(dst []byte, status int, contentLength int) []byte {
	r := m.resp
	r.Reset()
	m.num = strconv.AppendInt(m.num[:0], int64(status), 10)
	if a := staticdata.Lookup(m.num); a != nil {
		r.Append(mdelem.From(atomStatus, a))
	} else {
		r.Append(mdelem.From(atomStatus, mdelem.Borrowed(m.num)))
	}
	r.Append(mdelem.From(atomContentType, mdelem.BorrowString(textContentType)))
	m.num = strconv.AppendInt(m.num[:0], int64(contentLength), 10)
	r.Append(mdelem.From(atomContentLen, mdelem.Borrowed(m.num)))
	return m.enc.AppendBlock(dst, r)
}

// parseTimeout parses a grpc-timeout value with the library's parser
// (both codecs use it).
func parseTimeout(v string) (time.Duration, error) {
	return grpcmeta.ParseTimeout(v)
}
