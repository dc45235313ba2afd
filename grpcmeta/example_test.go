package grpcmeta_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/metapack/metapack/grpcmeta"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// A server validates a decoded request, then reads its deadline.
func Example() {
	b := mdelem.NewBatch(8, 256)
	for _, kv := range [][2]string{
		{":method", "POST"}, {":scheme", "https"}, {":path", "/helloworld.Greeter/SayHello"},
		{":authority", "example.com"}, {"te", "trailers"}, {"grpc-timeout", "100m"},
	} {
		b.Append(mdelem.From(mdelem.BorrowString(kv[0]), mdelem.BorrowString(kv[1])))
	}
	fmt.Println("valid:", grpcmeta.ValidateRequest(b))
	if f, ok := b.Get(staticdata.KeyGrpcTimeout); ok {
		d, err := grpcmeta.ParseTimeout(f.Value.String())
		fmt.Println("deadline in:", d, err)
	}

	// A pseudo-header after a regular one is refused, and the error
	// names the field.
	b.Append(mdelem.From(mdelem.BorrowString(":authority"), mdelem.BorrowString("other.example")))
	err := grpcmeta.ValidateRequest(b)
	fmt.Println(err)
	var fe *grpcmeta.FieldError
	fmt.Println(errors.Is(err, grpcmeta.ErrPseudoHeader), errors.As(err, &fe) && fe.Index == 6)
	// Output:
	// valid: <nil>
	// deadline in: 100ms <nil>
	// grpcmeta: pseudo-header rule broken: field 6 ":authority": after a regular header
	// true true
}

// A server echoes a request's binary metadata in its response and ends
// the call with a status and a message, reusing its buffers throughout.
func Example_echo() {
	req := mdelem.NewBatch(8, 256)
	req.Append(mdelem.From(mdelem.BorrowString("x-trace-bin"), mdelem.BorrowString("AAECAw"))) // as decoded from the wire
	resp := mdelem.NewBatch(8, 256)
	var dec, scratch []byte

	if err := grpcmeta.ValidateMetadata(req); err != nil {
		fmt.Println(err)
	}
	for _, f := range req.All() {
		if !grpcmeta.IsBinary(f.Name.UnsafeBytes()) {
			continue
		}
		var err error
		if dec, err = grpcmeta.DecodeBinary(dec[:0], f); err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s: %x\n", f.Name, dec)
		// The name's view lasts until req.Reset; resp copies it.
		scratch, _ = grpcmeta.AppendBinary(resp, scratch, f.Name.UnsafeString(), dec)
	}
	const notFound = 5 // codes.NotFound in google.golang.org/grpc/codes
	scratch, _ = grpcmeta.AppendStatusTrailers(resp, scratch, notFound, "no such key: é")
	fmt.Println(grpcmeta.ValidateResponse(resp, grpcmeta.ResponseTrailers))
	for _, f := range resp.All() {
		fmt.Println(f)
	}
	st, _ := resp.Get(staticdata.KeyGrpcStatus)
	code, _ := grpcmeta.ValueOf(st.Value).Status()
	msg, _ := resp.Get(staticdata.KeyGrpcMessage)
	fmt.Printf("%v %s\n", code, grpcmeta.DecodeMessage(nil, msg.Value.UnsafeBytes()))
	// Output:
	// x-trace-bin: 00010203
	// <nil>
	// x-trace-bin: AAECAw
	// grpc-status: 5
	// grpc-message: no such key: %C3%A9
	// 5 no such key: é
}

// A client sends its deadline, never shorter than the one it means.
func ExampleAppendTimeout() {
	for _, d := range []time.Duration{time.Second, 1500 * time.Millisecond, 100000001} {
		fmt.Printf("%s ", grpcmeta.AppendTimeout(nil, d))
	}
	fmt.Println()
	// Output: 1S 1500m 100001u
}
