package mdelem_test

import (
	"fmt"

	"github.com/metapack/metapack/intern"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// From takes each side in the storage that suits it: a static atom, an
// interned handle, bytes the batch adopts, or bytes it copies. Names that are
// atoms compare by pointer.
func ExampleFrom() {
	table := intern.New(intern.Limits{})
	tenant, _ := intern.Make(table, "x-tenant")

	b := mdelem.NewBatch(8, 256)
	b.Append(mdelem.From(staticdata.KeyContentType.Atom(), mdelem.BorrowString("application/grpc")))
	b.Append(mdelem.From(tenant, mdelem.Owned([]byte("acme"))))
	buf := []byte("abc123")
	b.Append(mdelem.From(mdelem.BorrowString("x-request-id"), mdelem.Borrowed(buf)))
	buf[0] = 'X' // the batch copied the borrowed bytes

	for _, f := range b.All() {
		fmt.Printf("%-32s name is an atom: %v\n", f, f.Name.IsAtom())
	}
	// Output:
	// content-type: application/grpc   name is an atom: true
	// x-tenant: acme                   name is an atom: true
	// x-request-id: abc123             name is an atom: false
}

// Get finds well-known keys in O(1); GetString looks up any name.
func ExampleBatch_Get() {
	b := mdelem.NewBatch(8, 256)
	b.Append(mdelem.From(mdelem.BorrowString(":path"), mdelem.BorrowString("/helloworld.Greeter/SayHello")))
	b.Append(mdelem.From(mdelem.BorrowString("grpc-timeout"), mdelem.BorrowString("100m")))
	b.Append(mdelem.From(mdelem.BorrowString("x-custom"), mdelem.BorrowString("1")))

	if f, ok := b.Get(staticdata.KeyPath); ok {
		fmt.Println("path:", f.Value)
	}
	if f, ok := b.Get(staticdata.KeyGrpcTimeout); ok {
		fmt.Println("timeout:", f.Value)
	}
	if f, ok := b.GetString("x-custom"); ok {
		fmt.Println("x-custom:", f.Value)
	}
	_, ok := b.Get(staticdata.KeyAuthority)
	fmt.Println("has :authority:", ok)
	// Output:
	// path: /helloworld.Greeter/SayHello
	// timeout: 100m
	// x-custom: 1
	// has :authority: false
}

// FromStrings is the one call for fields given as strings: well-known
// names and values become static atoms, the rest bytes the batch copies.
func ExampleFromStrings() {
	b := mdelem.NewBatch(8, 256)
	b.Append(mdelem.FromStrings(":path", "/helloworld.Greeter/SayHello"))
	b.Append(mdelem.FromStrings("content-type", "application/grpc"))
	b.Append(mdelem.FromStrings("x-request-id", "7a5f0c1e"))
	if err := b.Err(); err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range b.All() {
		fmt.Printf("%-32s name %v, value %v\n", f, f.Name.Kind(), f.Value.Kind())
	}
	if f, ok := b.Get(staticdata.KeyContentType); ok {
		fmt.Println("content-type:", f.Value)
	}
	// Output:
	// :path: /helloworld.Greeter/SayHello name static, value owned
	// content-type: application/grpc   name static, value static
	// x-request-id: 7a5f0c1e           name owned, value owned
	// content-type: application/grpc
}
