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
	dst := make([]byte, 0, 256)
	out := mdelem.NewBatch(8, 256)
	var scratch []byte
	tests := []struct {
		name   string
		fn     func()
		purego bool // allocates under purego, where BorrowString copies
	}{
		{"AppendBase64Decode", func() { dst, _ = AppendBase64Decode(dst[:0], []byte("AAECAwQFBgcICQ==")) }, false},
		{"AppendBinaryValue", func() { dst, _ = AppendBinaryValue(dst[:0], bin) }, false},
		{"BinaryValue", func() { out.Reset(); dst, _ = BinaryValue(out, bin) }, false},
		{"IsBinaryField", func() { _ = IsBinaryField(bin) }, false},
		{"AppendBase64", func() { dst = AppendBase64(dst[:0], []byte("0123456789")) }, false},
		{"AppendDecodedMessage", func() { dst = AppendDecodedMessage(dst[:0], msg.Value.UnsafeBytes()) }, false},
		{"AppendEncodedMessage", func() { dst = AppendEncodedMessage(dst[:0], "boom 日 100%") }, false},
		{"ParseStatus", func() { _, _ = ParseStatus("13") }, false},
		{"ParseTimeout", func() { _, _ = ParseTimeout([]byte("100m")) }, false},
		{"AppendTimeout", func() { dst = AppendTimeout(dst[:0], 1500*time.Millisecond) }, false},
		{"AppendStatus", func() { dst = AppendStatus(dst[:0], 13) }, false},
		{"ParseContentType", func() { _ = ParseContentType([]byte("application/grpc+proto")) }, false},
		{"ParseEncoding", func() { _ = ParseEncoding([]byte("gzip")) }, false},
		{"ParseAcceptEncoding", func() { _ = ParseAcceptEncoding([]byte("identity, gzip")) }, false},
		{"ValueOf static", func() { _ = ValueOf(static) }, false},
		{"ValueOf interned", func() { _ = ValueOf(interned) }, false},
		{"ValueOf bytes", func() { _ = ValueOf(msg.Value) }, false},
		{"ValidateRequest", func() { _ = ValidateRequest(req) }, false},
		{"ValidateMetadata", func() { _ = ValidateMetadata(req) }, false},
		{"ValidateResponse headers", func() { _ = ValidateResponse(head, ResponseHeaders) }, false},
		{"ValidateResponse trailers", func() { _ = ValidateResponse(trail, Trailers) }, false},
		{"AppendStatusTrailers", func() { out.Reset(); scratch, _ = AppendStatusTrailers(out, scratch, Internal, "boom 日") }, false},
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
