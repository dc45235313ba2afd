//go:build !purego

package mdelem

import (
	"testing"
	"unsafe"

	"github.com/metapack/metapack/staticdata"
)

// TestBatchEmptyBorrowed checks that an empty borrowed side, on either
// path, ends up owned and pointing neither at the caller's bytes nor past
// the end of the arena, which a full arena would invite.
func TestBatchEmptyBorrowed(t *testing.T) {
	caller := make([]byte, 8)
	empty := Borrowed(caller[4:4])
	for _, arena := range []int{0, 7, 64} {
		b := NewBatch(4, arena)
		for i, f := range []Field{
			From(staticdata.KeyPath.Atom(), Borrowed("1234567")), // fills an arena of 7
			From(staticdata.KeyPath.Atom(), empty),               // fast path unless the arena is full
			From(Borrowed("x-k"), empty),                         // slow path, value empty
			From(empty, Borrowed("v")),                           // slow path, name empty
		} {
			b.Append(f)
			lo := uintptr(unsafe.Pointer(unsafe.SliceData(b.arena)))
			hi := lo + uintptr(cap(b.arena))
			f = b.At(i)
			for _, s := range []Str{f.Name, f.Value} {
				if s.kind() == KindBorrowed {
					t.Errorf("arena %d, field %d: %v still borrowed", arena, i, f)
				}
				if s.kind() != KindOwned || s.n() != 0 {
					continue
				}
				if p := uintptr(s.p); p != 0 && (p < lo || p >= hi) {
					t.Errorf("arena %d, field %d: empty side points at %#x, outside the arena [%#x, %#x)", arena, i, p, lo, hi)
				}
			}
		}
		if want := 4*32 + 2*len(":path") + 7 + 3 + 1; b.Size() != want {
			t.Errorf("arena %d: Size = %d, want %d", arena, b.Size(), want)
		}
	}
}
