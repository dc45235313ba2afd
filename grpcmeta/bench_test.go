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
