package grpcmeta

import (
	"github.com/metapack/metapack/intern"
	"testing"
	"time"

	"github.com/metapack/metapack/mdelem"
)

// TestReadPathsAllocateNothing holds every read path, and the write
// paths with a reused buffer and batch, to zero allocations in steady
// state.
func TestReadPathsAllocateNothing(t *testing.T) {
	req := batchOf(":method", "POST", ":scheme", "http", ":path", "/a.B/C", ":authority", "h",
		"content-type", "application/grpc", "te", "trailers", "grpc-timeout", "100m",
		"x-trace-bin", "AAECAwQFBgcICQ", "x-user", "alice")
	head := batchOf(":status", "200", "content-type", "application/grpc+proto", "grpc-encoding", "gzip")
	trail := batchOf("grpc-status", "13", "grpc-message", "boom%20%E6%97%A5", "x-a-bin", "AA==")
	tab := newTable(t)
	h, _ := intern.Make(tab, "application/grpc+custom")
	interned := mdelem.StrOf(mdelem.Interned(h))
	static := mdelem.From(mdelem.BorrowString("content-type"), mdelem.BorrowString("application/grpc")).Value
	bin, _ := req.GetString("x-trace-bin")
	msg, _ := trail.GetString("grpc-message")
	status := mdelem.StrOf(mdelem.Borrowed([]byte("13")))
	dst := make([]byte, 0, 256)
	out := mdelem.NewBatch(8, 256)
	var scratch []byte
	tests := []struct {
		name   string
		fn     func()
		purego bool // allocates under purego, where BorrowString copies
	}{
		{"AppendBase64Decode", func() { dst, _ = appendBase64Decode(dst[:0], []byte("AAECAwQFBgcICQ==")) }, false},
		{"DecodeBinary", func() { dst, _ = DecodeBinary(dst[:0], bin) }, false},
		{"DecodeBinary into the batch", func() { out.Reset(); dst, _ = DecodeBinary(out.Alloc(bin.Value.Len())[:0], bin) }, false},
		{"IsBinary", func() { _ = IsBinary(bin.Name.UnsafeBytes()) }, false},
		{"DecodeMessage", func() { dst = DecodeMessage(dst[:0], msg.Value.UnsafeBytes()) }, false},
		{"AppendMessage", func() { dst = AppendMessage(dst[:0], "boom 日 100%") }, false},
		{"Value.Status", func() { _, _ = ValueOf(status).Status() }, false},
		{"ParseTimeout", func() { _, _ = ParseTimeout([]byte("100m")) }, false},
		{"AppendTimeout", func() { dst = AppendTimeout(dst[:0], 1500*time.Millisecond) }, false},
		{"parseContentType", func() { _ = parseContentType([]byte("application/grpc+proto")) }, false},
		{"parseEncoding", func() { _ = parseEncoding([]byte("gzip")) }, false},
		{"parseAcceptEncoding", func() { _ = parseAcceptEncoding([]byte("identity, gzip")) }, false},
		{"ValueOf static", func() { _ = ValueOf(static) }, false},
		{"ValueOf interned", func() { _ = ValueOf(interned) }, false},
		{"ValueOf bytes", func() { _ = ValueOf(msg.Value) }, false},
		{"ValidateRequest", func() { _ = ValidateRequest(req) }, false},
		{"ValidateMetadata", func() { _ = ValidateMetadata(req) }, false},
		{"ValidateResponse headers", func() { _ = ValidateResponse(head, ResponseHeaders) }, false},
		{"ValidateResponse trailers", func() { _ = ValidateResponse(trail, ResponseTrailers) }, false},
		{"AppendStatusTrailers", func() { out.Reset(); scratch, _ = AppendStatusTrailers(out, scratch, 13, "boom 日") }, false},
		{"AppendBinary", func() { out.Reset(); scratch, _ = AppendBinary(out, scratch, "x-trace-bin", []byte("0123456789")) }, true},
		{"AppendBinary well-known", func() { out.Reset(); scratch, _ = AppendBinary(out, scratch, "grpc-trace-bin", []byte("0123456789")) }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.purego && pureGo {
				t.Skip("BorrowString copies under purego")
			}
			if n := testing.AllocsPerRun(100, tt.fn); n != 0 {
				t.Errorf("%v allocations per call", n)
			}
		})
	}
}
