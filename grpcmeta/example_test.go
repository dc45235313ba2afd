package grpcmeta_test

import (
	"errors"
	"fmt"

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
	fmt.Println(errors.Is(err, grpcmeta.ErrPseudoAfterRegular), errors.As(err, &fe) && fe.Index == 6)
	// Output:
	// valid: <nil>
	// deadline in: 100ms <nil>
	// grpcmeta: pseudo-header after a regular header: field 6 ":authority"
	// true true
}
