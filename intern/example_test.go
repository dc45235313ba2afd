package intern_test

import (
	"fmt"

	"github.com/metapack/metapack/intern"
)

// Make returns one canonical handle per string, so that equality is a
// pointer comparison. Static-tier strings need no table entry; strings over
// the table's limits are not interned, and the caller keeps its own copy.
func ExampleMake() {
	t := intern.New(intern.Limits{MaxEntries: 16, MaxBytes: 4096, MaxLen: 16})

	a, _ := intern.Make(t, []byte("x-tenant"))
	b, _ := intern.Make(t, "x-tenant")
	fmt.Println(a == b, a.Atom().String(), t.Len())

	ct, _ := intern.Make(t, []byte("content-type"))
	fmt.Println(ct.Atom().Key(), t.Len())

	_, ok := intern.Make(t, "a-value-longer-than-sixteen-bytes")
	fmt.Println(ok, t.Len())
	// Output:
	// true x-tenant 1
	// content-type 1
	// false 1
}
