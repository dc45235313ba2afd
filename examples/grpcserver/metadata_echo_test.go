package main

import (
	"bytes"
	"testing"

	"github.com/metapack/metapack/grpcmeta"
	"github.com/metapack/metapack/mdelem"
	xhpack "golang.org/x/net/http2/hpack"
)

// responseBatch decodes a response block the codec encoded into a batch
// for grpcmeta's validations, and returns its fields too (Sensitive
// included).
// codeNotFound is the status code NOT_FOUND.
const codeNotFound = 5

func responseBatch(t *testing.T, dec *xhpack.Decoder, block []byte) (*mdelem.Batch, []xhpack.HeaderField) {
	t.Helper()
	fields, err := dec.DecodeFull(block)
	if err != nil {
		t.Fatal(err)
	}
	b := mdelem.NewBatch(len(fields), 1024)
	for _, f := range fields {
		b.Append(mdelem.From(mdelem.BorrowString(f.Name), mdelem.BorrowString(f.Value)))
	}
	return b, fields
}

// listSize is the header list size of fields (name + value + 32 each).
func listSize(fields []xhpack.HeaderField) int {
	n := 0
	for _, f := range fields {
		n += fieldSize(f.Name, f.Value)
	}
	return n
}

// TestEchoBinaryMetadata: with either codec, echoed binary metadata is
// decoded and written back canonically (base64 without padding), padded
// and unpadded values alike; a value that several joined with ',' comes
// back as one field per value; a value, or part, that is not base64 is
// dropped; a never-indexed field stays never-indexed. Each response block
// passes grpcmeta.ValidateResponse and ValidateMetadata, echoSize and
// grpcTrailersSize agree with what is encoded, and grpc-message decodes
// to the message given.
func TestEchoBinaryMetadata(t *testing.T) {
	req := append(append([]xhpack.HeaderField(nil), loadtestRequest[:4]...),
		xhpack.HeaderField{Name: "content-type", Value: "application/grpc"},
		xhpack.HeaderField{Name: "te", Value: "trailers"},
		xhpack.HeaderField{Name: "x-echo-plain", Value: "v a l u e"},
		xhpack.HeaderField{Name: "x-echo-padded-bin", Value: "AAECAw=="},
		xhpack.HeaderField{Name: "x-echo-unpadded-bin", Value: "AAECAw"},
		xhpack.HeaderField{Name: "x-echo-nonzero-bits-bin", Value: "AAECAx"}, // bits after the last byte are ignored
		xhpack.HeaderField{Name: "x-echo-joined-bin", Value: "AQ,AgM=,"},
		xhpack.HeaderField{Name: "x-echo-empty-bin", Value: ""},
		xhpack.HeaderField{Name: "x-echo-bad-bin", Value: "not base64!"},
		xhpack.HeaderField{Name: "x-echo-half-bad-bin", Value: "*,/w"},
		xhpack.HeaderField{Name: "x-echo-secret-bin", Value: "c2VjcmV0", Sensitive: true},
		xhpack.HeaderField{Name: "x-not-echoed-bin", Value: "AAAA"},
	)
	want := []xhpack.HeaderField{
		{Name: ":status", Value: "200"},
		{Name: "content-type", Value: "application/grpc"},
		{Name: "x-echo-plain", Value: "v a l u e"},
		{Name: "x-echo-padded-bin", Value: "AAECAw"},
		{Name: "x-echo-unpadded-bin", Value: "AAECAw"},
		{Name: "x-echo-nonzero-bits-bin", Value: "AAECAw"},
		{Name: "x-echo-joined-bin", Value: "AQ"},
		{Name: "x-echo-joined-bin", Value: "AgM"},
		{Name: "x-echo-joined-bin", Value: ""},
		{Name: "x-echo-empty-bin", Value: ""},
		{Name: "x-echo-half-bad-bin", Value: "/w"},
		{Name: "x-echo-secret-bin", Value: "c2VjcmV0", Sensitive: true},
	}
	const msg = "no such key: é, 100%\x00\xff"
	for _, name := range []string{codecMetapack, codecXnet} {
		t.Run(name, func(t *testing.T) {
			newCodec, err := newCodecFunc(name, codecLimits{256, 256 << 10, 64})
			if err != nil {
				t.Fatal(err)
			}
			c := newCodec()
			br := newBlockReader(c, 64<<10)
			var buf bytes.Buffer
			enc := xhpack.NewEncoder(&buf)
			for _, f := range req {
				enc.WriteField(f)
			}
			if err := br.read(c, buf.Bytes()); err != nil {
				t.Fatal(err)
			}
			h, info, err := c.takeRequest()
			if err != nil {
				t.Fatal(err)
			}
			defer c.releaseRequest(h)
			if !isGRPC(&info) {
				t.Fatalf("not a gRPC request: %+v", info)
			}
			dec := xhpack.NewDecoder(4096, nil)

			b, got := responseBatch(t, dec, c.appendGRPCHeaders(nil, h, -1, ""))
			if len(got) != len(want) {
				t.Errorf("headers %q,\nwant %q", got, want)
			} else {
				for i := range got {
					if got[i] != want[i] {
						t.Errorf("field %d: %+v, want %+v", i, got[i], want[i])
					}
				}
			}
			if err := grpcmeta.ValidateResponse(b, grpcmeta.ResponseHeaders); err != nil {
				t.Error(err)
			}
			if err := grpcmeta.ValidateMetadata(b); err != nil {
				t.Error(err)
			}
			if n, w := c.echoSize(h), listSize(got[2:]); n != w {
				t.Errorf("echoSize %d, want the %d encoded", n, w)
			}

			b, got = responseBatch(t, dec, c.appendGRPCTrailers(nil, codeNotFound, msg))
			if err := grpcmeta.ValidateResponse(b, grpcmeta.ResponseTrailers); err != nil {
				t.Error(err)
			}
			if n, w := grpcTrailersSize(codeNotFound, msg), listSize(got); n != w {
				t.Errorf("grpcTrailersSize %d, want the %d encoded", n, w)
			}
			if len(got) != 2 || got[0].Value != "5" || string(grpcmeta.DecodeMessage(nil, got[1].Value)) != msg {
				t.Errorf("trailers %q", got)
			}

			b, got = responseBatch(t, dec, c.appendGRPCHeaders(nil, h, 300, msg))
			if err := grpcmeta.ValidateResponse(b, grpcmeta.ResponseTrailersOnly); err != nil {
				t.Error(err)
			}
			if n, w := grpcHeadersSize(300, msg)+c.echoSize(h), listSize(got); n != w {
				t.Errorf("Trailers-Only size %d, want the %d encoded", n, w)
			}
			if st := got[len(got)-2]; st.Name != "grpc-status" || st.Value != "300" {
				t.Errorf("Trailers-Only status field %q", st)
			}
		})
	}
}

// TestRequestInfoTyped: content-type and grpc-encoding are read into
// their typed forms the same way by both codecs.
func TestRequestInfoTyped(t *testing.T) {
	for _, tt := range []struct {
		ct, enc    string
		grpc, has  bool
		coding     grpcmeta.Coding
		wantCTType grpcmeta.ContentType
	}{
		{"application/grpc", "", true, false, 0, grpcmeta.ContentTypeGRPC},
		{"application/grpc+proto", "identity", true, true, grpcmeta.CodingIdentity, grpcmeta.ContentTypeProto},
		{"application/grpc;charset=x", "gzip", true, true, grpcmeta.CodingGzip, grpcmeta.ContentTypeCustom},
		{"application/grpcx", "zstd", false, true, grpcmeta.CodingOther, grpcmeta.ContentTypeOther},
		{"text/plain", "", false, false, 0, grpcmeta.ContentTypeOther},
	} {
		for _, name := range []string{codecMetapack, codecXnet} {
			newCodec, _ := newCodecFunc(name, codecLimits{256, 256 << 10, 64})
			c := newCodec()
			br := newBlockReader(c, 64<<10)
			var buf bytes.Buffer
			enc := xhpack.NewEncoder(&buf)
			for _, f := range loadtestRequest[:4] {
				enc.WriteField(f)
			}
			enc.WriteField(xhpack.HeaderField{Name: "content-type", Value: tt.ct})
			if tt.enc != "" {
				enc.WriteField(xhpack.HeaderField{Name: "grpc-encoding", Value: tt.enc})
			}
			if err := br.read(c, buf.Bytes()); err != nil {
				t.Fatal(err)
			}
			h, info, err := c.takeRequest()
			if err != nil {
				t.Fatal(err)
			}
			c.releaseRequest(h)
			if isGRPC(&info) != tt.grpc || info.contentType != tt.wantCTType || info.hasEncoding != tt.has || info.coding != tt.coding {
				t.Errorf("%s: %q, %q: %+v", name, tt.ct, tt.enc, info)
			}
		}
	}
}
