package grpcmeta

import (
	"testing"

	"github.com/metapack/metapack/mdelem"
)

// TestParseContentType checks Content-Type: "application/grpc"
// [("+proto" / "+json" / {custom})].
func TestParseContentType(t *testing.T) {
	tests := []struct {
		in   string
		want ContentType
	}{
		{"application/grpc", ContentTypeGRPC},
		{"application/grpc+proto", ContentTypeProto},
		{"application/grpc+PROTO", ContentTypeProto},
		{"application/grpc+json", ContentTypeJSON},
		{"application/grpc+proto;charset=utf-8", ContentTypeProto},
		{"application/grpc+thrift", ContentTypeCustom},
		{"application/grpc+", ContentTypeCustom},
		{"application/grpc;x=y", ContentTypeCustom},
		{"application/grpc-web", ContentTypeOther},
		{"application/grpcx", ContentTypeOther},
		{"application/json", ContentTypeOther},
		{"Application/grpc", ContentTypeOther},
		{"", ContentTypeOther},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := parseContentType(tt.in); got != tt.want || parseContentType([]byte(tt.in)) != tt.want {
				t.Errorf("parseContentType(%q) = %d, want %d", tt.in, got, tt.want)
			}
			if got := ValueOf(mdelem.StrOf(mdelem.BorrowString(tt.in))).ContentType(); got != tt.want {
				t.Errorf("Value.ContentType = %d", got)
			}
		})
	}
}

// TestParseEncodings checks Content-Coding ("identity" / "gzip" /
// "deflate" / "snappy" / custom) and Message-Accept-Encoding, a list of
// them separated by ",".
func TestParseEncodings(t *testing.T) {
	for in, want := range map[string]Coding{"identity": CodingIdentity, "gzip": CodingGzip, "deflate": CodingDeflate, "snappy": CodingSnappy, "br": CodingOther, "GZIP": CodingOther, "": CodingOther} {
		if got := parseEncoding(in); got != want || parseEncoding([]byte(in)) != want {
			t.Errorf("parseEncoding(%q) = %d, want %d", in, got, want)
		}
	}
	set := func(cs ...Coding) uint8 {
		var s uint8
		for _, c := range cs {
			s |= 1 << c
		}
		return s
	}
	tests := []struct {
		in   string
		want uint8
	}{
		{"", 0},
		{"gzip", set(CodingGzip)},
		{"identity,gzip", set(CodingIdentity, CodingGzip)},
		{"identity, deflate ,\tgzip", set(CodingIdentity, CodingDeflate, CodingGzip)},
		{"gzip,,snappy,", set(CodingGzip, CodingSnappy)},
		{"zstd,gzip", set(CodingOther, CodingGzip)},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got := parseAcceptEncoding(tt.in)
			if got != tt.want || parseAcceptEncoding([]byte(tt.in)) != tt.want {
				t.Fatalf("parseAcceptEncoding(%q) = %08b, want %08b", tt.in, got, tt.want)
			}
			v := ValueOf(mdelem.StrOf(mdelem.BorrowString(tt.in)))
			for c := range Coding(8) {
				if v.Accepts(c) != (tt.want&(1<<c) != 0) {
					t.Errorf("Accepts(%d) = %v", c, v.Accepts(c))
				}
			}
		})
	}
	if (Value{bits: 0xff << vCodingsShift}).Accepts(200) {
		t.Error("Accepts of an undefined coding")
	}
}
