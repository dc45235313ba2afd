package grpcmeta

import (
	"encoding/base64"
	"github.com/metapack/metapack/intern"
	"math/rand/v2"
	"testing"

	"github.com/metapack/metapack/mdelem"
)

// BenchmarkBase64Decode decodes a 64-byte trace context's unpadded base64
// (86 bytes) with metapack's appendBase64Decode and with encoding/base64
// itself, as DecodeString (what grpc-go calls) and as AppendDecode.
func BenchmarkBase64Decode(b *testing.B) {
	data := make([]byte, 64)
	r := rand.New(rand.NewPCG(7, 8))
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	enc := base64.RawStdEncoding.AppendEncode(nil, data)
	encStr := string(enc)
	dst := make([]byte, 0, 64)
	b.Run("impl=metapack", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(enc)))
		for b.Loop() {
			dst, _ = appendBase64Decode(dst[:0], enc)
		}
	})
	b.Run("impl=stdlib-DecodeString", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(enc)))
		for b.Loop() {
			dst, _ = base64.RawStdEncoding.DecodeString(encStr)
		}
	})
	b.Run("impl=stdlib-AppendDecode", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(enc)))
		for b.Loop() {
			dst, _ = base64.RawStdEncoding.AppendDecode(dst[:0], enc)
		}
	})
}

// BenchmarkMessageDecode decodes a grpc-message with a few escapes
// (UTF-8 and a '%'), with metapack's DecodeMessage and with
// naiveDecode, a straightforward decoder.
func BenchmarkMessageDecode(b *testing.B) {
	v := string(AppendMessage(nil, "invalid argument: field \"name\" must be 1-64 bytes, got 100% 日本語 text"))
	dst := make([]byte, 0, 128)
	var sink string
	b.Run("impl=metapack", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(v)))
		for b.Loop() {
			dst = DecodeMessage(dst[:0], v)
		}
	})
	b.Run("impl=naive", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(v)))
		for b.Loop() {
			sink = naiveDecode(v)
		}
	})
	_ = sink
}

// BenchmarkWellKnownValue reads content-type and grpc-encoding values
// that are atoms, a static one and one interned by a connection's table,
// through the memo (ValueOf) and by parsing them each time.
func BenchmarkWellKnownValue(b *testing.B) {
	tab := newTable(b)
	h, _ := intern.Make(tab, "application/grpc+custom")
	cases := []struct {
		name string
		v    mdelem.Str
	}{
		{"static", mdelem.From(mdelem.BorrowString("content-type"), mdelem.BorrowString("application/grpc+proto")).Value},
		{"interned", mdelem.StrOf(mdelem.Interned(h))},
	}
	for _, c := range cases {
		b.Run("value="+c.name+"/impl=memo", func(b *testing.B) {
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				if ValueOf(c.v).ContentType() != ContentTypeOther {
					n++
				}
			}
		})
		b.Run("value="+c.name+"/impl=parse", func(b *testing.B) {
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				if parseContentType(c.v.UnsafeBytes()) != ContentTypeOther {
					n++
				}
			}
		})
	}
}

// BenchmarkValidate checks a gRPC request's headers, a response's headers
// and trailers, and custom metadata: well-known names as static atoms,
// custom ones as bytes.
func BenchmarkValidate(b *testing.B) {
	req := batchOf(":method", "POST", ":scheme", "https", ":path", "/helloworld.Greeter/SayHello",
		":authority", "localhost:50051", "content-type", "application/grpc", "te", "trailers",
		"grpc-timeout", "1S", "user-agent", "grpc-go/1.72.0", "x-request-id", "f3b2a1c0-9d8e-4f7a",
		"x-tenant-name", "acme", "trace-bin", "AAECAwQFBgcICQ")
	head := batchOf(":status", "200", "content-type", "application/grpc", "grpc-encoding", "identity", "x-server-region", "eu-west-1")
	trail := batchOf("grpc-status", "0", "grpc-message", "", "x-server-timing", "db;dur=53")
	cases := []struct {
		name string
		f    func() error
	}{
		{"request", func() error { return ValidateRequest(req) }},
		{"headers", func() error { return ValidateResponse(head, ResponseHeaders) }},
		{"trailers", func() error { return ValidateResponse(trail, ResponseTrailers) }},
		{"metadata", func() error { return ValidateMetadata(req) }},
	}
	for _, c := range cases {
		b.Run("check="+c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := c.f(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
