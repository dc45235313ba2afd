// A/B microbenchmark of grpc-go's header path alone (run.sh ab copies it
// into internal/transport of each tree): the client encodes a request block,
// the server decodes it and builds the metadata map as operateHeaders does;
// the server encodes the response headers and trailers, the client decodes
// them. Shared part.

package transport

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"golang.org/x/net/http2/hpack"
	"google.golang.org/grpc/mem"
)

func abReq(md int) []hpack.HeaderField {
	hf := []hpack.HeaderField{
		{Name: ":method", Value: "POST"}, {Name: ":scheme", Value: "http"},
		{Name: ":path", Value: "/grpc.testing.BenchmarkService/UnaryCall"}, {Name: ":authority", Value: "passthrough"},
		{Name: "content-type", Value: "application/grpc"}, {Name: "user-agent", Value: "grpc-go/1.85.0"}, {Name: "te", Value: "trailers"},
	}
	if md > 0 {
		hf = append(hf, hpack.HeaderField{Name: "authorization", Value: "Bearer eyJhbGciOiJIUzI1NiJ9.ZGVtby10b2tlbi0xMjM0NTY"})
	}
	for i := 0; i < md; i++ {
		v := fmt.Sprintf("v%02d-", i) + strings.Repeat("0123456789abcdef", 3)
		hf = append(hf, hpack.HeaderField{Name: fmt.Sprintf("x-ab-meta-%02d", i), Value: v[:20+2*i]})
	}
	return hf
}

var abResp = []hpack.HeaderField{{Name: ":status", Value: "200"}, {Name: "content-type", Value: "application/grpc"}}
var abTrail = []hpack.HeaderField{{Name: "grpc-status", Value: "0"}, {Name: "grpc-message", Value: ""}}

var abSink int

func BenchmarkABHeaders(b *testing.B) {
	for _, md := range []int{0, 10} {
		b.Run(fmt.Sprint("md", md), func(b *testing.B) {
			var wire bytes.Buffer
			wfr := newFramer(&wire, 32*1024, 32*1024, false, 16<<20, mem.DefaultBufferPool())
			rfr := newFramer(&wire, 32*1024, 32*1024, false, 16<<20, mem.DefaultBufferPool())
			cl := newLoopyWriter(clientSide, wfr, nil, nil, nil, nil, nil, nil)
			sv := newLoopyWriter(serverSide, wfr, nil, nil, nil, nil, nil, nil)
			abInit(cl)
			req := abReq(md)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				id := uint32(2*i + 1)
				// request: client encodes, server decodes and builds MD
				cl.writeHeader(id, false, req, nil)
				wfr.writer.Flush()
				abSink += abServerRead(rfr)
				// response headers and trailers: server encodes, client decodes
				sv.writeHeader(id, false, abResp, nil)
				sv.writeHeader(id, true, abTrail, nil)
				wfr.writer.Flush()
				abSink += abClientRead(rfr)
				abSink += abClientRead(rfr)
			}
		})
	}
}
