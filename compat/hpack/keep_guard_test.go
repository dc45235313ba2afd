package hpack

import (
	"testing"
	"unsafe"

	"github.com/metapack/metapack/internal/guardpage"
	"github.com/metapack/metapack/mdelem"
)

// TestFieldViewsKeptBytesAtGuard hands field kept values, as metapack's
// DecodeFragmentKeep does, whose bytes end or start at a guard page: the
// HeaderField's value is a string of exactly those bytes, a view of them
// outside -tags purego, and reading it, comparing it and copying it touch
// nothing past them. Lengths cover values cut from slabs and values with
// memory of their own.
func TestFieldViewsKeptBytesAtGuard(t *testing.T) {
	// Whether this build's Str.UnsafeString views owned bytes (-tags
	// purego copies them).
	probe := []byte("p")
	views := unsafe.StringData(mdelem.StrOf(mdelem.Owned(probe)).UnsafeString()) == &probe[0]
	var got []HeaderField
	d := NewDecoder(4096, func(f HeaderField) { got = append(got, f) })
	r := guardpage.NewRegion(t, 128)
	want := make([]byte, 100)
	for i := range want {
		want[i] = byte('a' + i%26)
	}
	for n := range len(want) + 1 {
		for _, place := range []func([]byte) []byte{r.CopyBefore, r.CopyAfter} {
			b := place(want[:n])
			got = got[:0]
			d.field(mdelem.Field{
				Name:  mdelem.StrOf(mdelem.Borrowed("x-k")),
				Value: mdelem.StrOf(mdelem.Owned(b)),
			})
			if len(got) != 1 {
				t.Fatalf("n=%d: %d fields emitted", n, len(got))
			}
			v := got[0].Value
			if v != string(want[:n]) || len(v) != n {
				t.Fatalf("n=%d: value %q", n, v)
			}
			if views && n > 0 && unsafe.StringData(v) != &b[0] {
				t.Fatalf("n=%d: the value is a copy, not a view of the kept bytes", n)
			}
		}
	}
}
