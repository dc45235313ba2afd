package staticdata_test

import (
	"fmt"

	"github.com/metapack/metapack/staticdata"
)

// Look header names up, as strings or as the bytes a decoder hands out,
// and get their well-known keys.
func Example() {
	for _, name := range [][]byte{[]byte(":path"), []byte("grpc-timeout"), []byte("x-request-id")} {
		a := staticdata.Lookup(name)
		if a == nil {
			fmt.Printf("%s: not a static string\n", name)
			continue
		}
		fmt.Printf("%s: key %d, is KeyPath: %v\n", a.String(), a.Key(), a.Key() == staticdata.KeyPath)
	}
	fmt.Println(staticdata.KeyContentType.String(), staticdata.Lookup("application/grpc") != nil)
	// Output:
	// :path: key 3, is KeyPath: true
	// grpc-timeout: key 56, is KeyPath: false
	// x-request-id: not a static string
	// content-type true
}
