package grpcmeta

import "testing"

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
			if got := ParseContentType(tt.in); got != tt.want || ParseContentType([]byte(tt.in)) != tt.want {
				t.Errorf("ParseContentType(%q) = %d, want %d", tt.in, got, tt.want)
			}
			if got := ParseContentType(tt.in).IsGRPC(); got != (tt.want != ContentTypeOther) {
				t.Errorf("IsGRPC = %v", got)
			}
		})
	}
	if ContentType(200).IsGRPC() {
		t.Error("an undefined ContentType is gRPC")
	}
}

// TestParseEncodings checks Content-Coding ("identity" / "gzip" /
// "deflate" / "snappy" / custom) and Message-Accept-Encoding, a list of
// them separated by ",".
func TestParseEncodings(t *testing.T) {
	for in, want := range map[string]Coding{"identity": CodingIdentity, "gzip": CodingGzip, "deflate": CodingDeflate, "snappy": CodingSnappy, "br": CodingOther, "GZIP": CodingOther, "": CodingOther} {
		if got := ParseEncoding(in); got != want || ParseEncoding([]byte(in)) != want {
			t.Errorf("ParseEncoding(%q) = %d, want %d", in, got, want)
		}
	}
	set := func(cs ...Coding) CodingSet {
		var s CodingSet
		for _, c := range cs {
			s |= 1 << c
		}
		return s
	}
	tests := []struct {
		in   string
		want CodingSet
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
			got := ParseAcceptEncoding(tt.in)
			if got != tt.want || ParseAcceptEncoding([]byte(tt.in)) != tt.want {
				t.Fatalf("ParseAcceptEncoding(%q) = %08b, want %08b", tt.in, got, tt.want)
			}
			for c := range Coding(8) {
				if got.Has(c) != (tt.want&(1<<c) != 0) {
					t.Errorf("Has(%d) = %v", c, got.Has(c))
				}
			}
		})
	}
	if CodingSet(0xff).Has(200) {
		t.Error("Has of an undefined coding")
	}
}
