package hpack_test

import (
	"bytes"
	"fmt"

	"github.com/metapack/metapack/compat/hpack"
)

// Code written for golang.org/x/net/http2/hpack runs unchanged with the
// import path changed.
func Example() {
	var buf bytes.Buffer
	enc := hpack.NewEncoder(&buf)
	enc.WriteField(hpack.HeaderField{Name: ":status", Value: "200"})
	enc.WriteField(hpack.HeaderField{Name: "content-type", Value: "application/grpc"})
	enc.WriteField(hpack.HeaderField{Name: "x-secret", Value: "hunter2", Sensitive: true})

	dec := hpack.NewDecoder(4096, func(f hpack.HeaderField) { fmt.Println(f) })
	block := buf.Bytes()
	dec.Write(block[:5]) // fragments of any length: HEADERS, then CONTINUATION
	dec.Write(block[5:])
	if err := dec.Close(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// header field ":status" = "200"
	// header field "content-type" = "application/grpc"
	// header field "x-secret" = "hunter2" (sensitive)
}
