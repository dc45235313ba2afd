package intern_test

import (
	"fmt"

	"github.com/metapack/metapack/intern"
)

// Make returns one canonical handle per string, so that equality is a
// pointer comparison. Static-tier strings need no table entry; strings over
// the table's limits are not interned, and the caller keeps its own copy.
func ExampleTable_Make() {
	t := intern.New(intern.Limits{MaxEntries: 16, MaxBytes: 4096, MaxLen: 16})

	a, _ := t.Make([]byte("x-tenant"))
	b, _ := t.MakeString("x-tenant")
	fmt.Println(a == b, a.String(), t.Len())

	ct, _ := t.Make([]byte("content-type"))
	fmt.Println(ct.IsStatic(), t.Len())

	_, ok := t.MakeString("a-value-longer-than-sixteen-bytes")
	fmt.Println(ok, t.Len())
	// Output:
	// true x-tenant 1
	// true 1
	// false 1
}
