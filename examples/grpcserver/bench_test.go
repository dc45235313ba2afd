package main

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/metapack/metapack/headerblock"
	"golang.org/x/net/http2"
	xhpack "golang.org/x/net/http2/hpack"
)

// loadtestRequest is the header list loadtest.sh sends with h2load.
var loadtestRequest = []xhpack.HeaderField{
	{Name: ":method", Value: "POST"},
	{Name: ":path", Value: "/echo.Echo/Echo"},
	{Name: ":scheme", Value: "http"},
	{Name: ":authority", Value: "127.0.0.1:8080"},
	{Name: "content-length", Value: "37"},
	{Name: "content-type", Value: "application/grpc"},
	{Name: "te", Value: "trailers"},
	{Name: "grpc-timeout", Value: "99m"},
	{Name: "user-agent", Value: "grpc-go/1.85.0"},
	{Name: "grpc-accept-encoding", Value: "gzip"},
	{Name: "x-request-id", Value: "3f2a9c4e-6b1d-4e8f-9a7c-2d5e8b1f0a63"},
	{Name: "x-echo-tenant", Value: "acme-production"},
	{Name: "x-echo-trace", Value: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"},
	// Sent never-indexed, as nghttp2 (h2load) does.
	{Name: "authorization", Value: "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJsb2FkdGVzdCJ9.c2lnbmF0dXJl", Sensitive: true},
}

// loadtestEchoHeaders are the 20 extra headers of loadtest.sh's second
// workload (LOADTEST_ECHO_HEADERS=20), all echoed.
var loadtestEchoHeaders = func() (fs []xhpack.HeaderField) {
	for i := 1; i <= 20; i++ {
		fs = append(fs, xhpack.HeaderField{Name: fmt.Sprintf("x-echo-h%d", i), Value: fmt.Sprintf("value-%d-0123456789abcdef", i)})
	}
	return fs
}()

// BenchmarkCodecRequest measures one unary call's header work in each
// codec, as the server does it: read the request block from a Framer
// (its HEADERS frame framed and parsed each time), validate it and
// pick out its fields, encode the response headers (with the echoed
// metadata) and the trailers, release the request. The request blocks
// come from a steady-state x/net encoder, as on a long-lived connection.
// The two workloads are loadtest.sh's: its default request, and the
// same with 20 echoed headers.
func BenchmarkCodecRequest(b *testing.B) {
	for _, w := range []struct {
		name   string
		fields []xhpack.HeaderField
	}{
		{"default", loadtestRequest},
		{"echo20", append(append([]xhpack.HeaderField(nil), loadtestRequest...), loadtestEchoHeaders...)},
	} {
		b.Run("workload="+w.name, func(b *testing.B) { benchCodecRequest(b, w.fields) })
	}
}

func benchCodecRequest(b *testing.B, fields []xhpack.HeaderField) {
	var buf bytes.Buffer
	enc := xhpack.NewEncoder(&buf)
	var blocks [][]byte
	for range 4 {
		buf.Reset()
		for _, f := range fields {
			enc.WriteField(f)
		}
		blocks = append(blocks, bytes.Clone(buf.Bytes()))
	}
	steady := blocks[len(blocks)-1]
	for _, name := range []string{codecMetapack, codecXnet} {
		b.Run("impl="+name, func(b *testing.B) {
			newCodec, err := newCodecFunc(name, codecLimits{256, 256 << 10, 64})
			if err != nil {
				b.Fatal(err)
			}
			c := newCodec()
			br := newBlockReader(c, 64<<10)
			var out []byte
			for _, blk := range blocks[:len(blocks)-1] { // warm the tables
				out = codecRoundTrip(b, c, br, blk, out)
			}
			b.SetBytes(int64(len(steady)))
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				out = codecRoundTrip(b, c, br, steady, out)
			}
		})
	}
}

// blockReader hands a codec an encoded header block as the server does:
// as a HEADERS frame, and CONTINUATION frames past 16 KiB, that the codec
// reads from a Framer set up for it, whose MaxHeaderListSize is the
// advertised size.
type blockReader struct {
	wire bytes.Buffer
	w, r *http2.Framer
}

func newBlockReader(c headerCodec, maxList uint32) *blockReader {
	br := &blockReader{}
	br.w = http2.NewFramer(&br.wire, nil)
	br.r = http2.NewFramer(nil, &br.wire)
	br.r.MaxHeaderListSize = maxList
	c.setFramer(br.r)
	return br
}

// read has c read block, sent on stream 1.
func (br *blockReader) read(c headerCodec, block []byte) error {
	br.wire.Reset()
	if err := headerblock.WriteBlock(br.w, 1, false, block, 16384); err != nil {
		return err
	}
	f, err := br.r.ReadFrame()
	if err != nil {
		return err
	}
	_, err = c.readHeaders(br.r, f, nil)
	return err
}

func codecRoundTrip(b *testing.B, c headerCodec, br *blockReader, block, out []byte) []byte {
	if err := br.read(c, block); err != nil {
		b.Fatal(err)
	}
	h, info, err := c.takeRequest()
	if err != nil {
		b.Fatal(err)
	}
	if !isGRPC(&info) || info.path != "/echo.Echo/Echo" {
		b.Fatalf("bad request info %+v", info)
	}
	out = c.appendGRPCHeaders(out[:0], h, -1, "")
	c.releaseRequest(h)
	return c.appendGRPCTrailers(out, 0, "")
}
