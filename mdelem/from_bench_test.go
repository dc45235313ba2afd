//go:build !purego

package mdelem

import (
	"testing"
	"unsafe"

	"github.com/metapack/metapack/intern"
	"github.com/metapack/metapack/staticdata"
)

// Handwritten, non-generic constructors: one per side kind, and one per
// combination below. BenchmarkFrom compares them with the generic From.
func hStatic(a Static) Str                      { return Str{p: unsafe.Pointer(a), tag: tagStatic} }
func hInterned(h Interned) Str                  { return Str{p: unsafe.Pointer(h.Atom()), tag: tagInterned} }
func hOwned(b Owned) Str                        { return ownedStr(b) }
func hBorrowed(b Borrowed) Str                  { return borrowedStr(b) }
func fromStaticStatic(k Static, v Static) Field { return Field{Name: hStatic(k), Value: hStatic(v)} }
func fromStaticInterned(k Static, v Interned) Field {
	return Field{Name: hStatic(k), Value: hInterned(v)}
}
func fromStaticOwned(k Static, v Owned) Field { return Field{Name: hStatic(k), Value: hOwned(v)} }
func fromStaticBorrowed(k Static, v Borrowed) Field {
	return Field{Name: hStatic(k), Value: hBorrowed(v)}
}
func fromInternedStatic(k Interned, v Static) Field {
	return Field{Name: hInterned(k), Value: hStatic(v)}
}
func fromInternedInterned(k Interned, v Interned) Field {
	return Field{Name: hInterned(k), Value: hInterned(v)}
}
func fromInternedOwned(k Interned, v Owned) Field { return Field{Name: hInterned(k), Value: hOwned(v)} }
func fromInternedBorrowed(k Interned, v Borrowed) Field {
	return Field{Name: hInterned(k), Value: hBorrowed(v)}
}
func fromOwnedStatic(k Owned, v Static) Field     { return Field{Name: hOwned(k), Value: hStatic(v)} }
func fromOwnedInterned(k Owned, v Interned) Field { return Field{Name: hOwned(k), Value: hInterned(v)} }
func fromOwnedOwned(k Owned, v Owned) Field       { return Field{Name: hOwned(k), Value: hOwned(v)} }
func fromOwnedBorrowed(k Owned, v Borrowed) Field { return Field{Name: hOwned(k), Value: hBorrowed(v)} }
func fromBorrowedStatic(k Borrowed, v Static) Field {
	return Field{Name: hBorrowed(k), Value: hStatic(v)}
}
func fromBorrowedInterned(k Borrowed, v Interned) Field {
	return Field{Name: hBorrowed(k), Value: hInterned(v)}
}
func fromBorrowedOwned(k Borrowed, v Owned) Field { return Field{Name: hBorrowed(k), Value: hOwned(v)} }
func fromBorrowedBorrowed(k Borrowed, v Borrowed) Field {
	return Field{Name: hBorrowed(k), Value: hBorrowed(v)}
}

var sinkSum uintptr

// consume folds a field into a checksum, so the compiler keeps the
// construction without a store of the whole field to memory per iteration.
func consume(sum uintptr, f Field) uintptr {
	return sum + uintptr(f.Name.p) + uintptr(f.Name.tag) + uintptr(f.Value.p) + uintptr(f.Value.tag)
}

// BenchmarkFrom checks that the generic constructor, inlined, costs what a
// handwritten one for the same kinds does: its kind switches fold away.
// Each iteration takes its inputs from a four-element set, so that neither
// side's construction can be hoisted out of the loop.
func BenchmarkFrom(b *testing.B) {
	tab := intern.New(intern.Limits{})
	var (
		vStatic   [4]Static
		vInterned [4]Interned
		vOwned    [4]Owned
		vBorrowed [4]Borrowed
	)
	for i, s := range []string{"x-tenant-id", "x-request-id", "x-b3-traceid", "x-user"} {
		vInterned[i], _ = intern.Make(tab, s)
		vOwned[i] = Owned(s + "-owned")
		vBorrowed[i] = Borrowed(s + "-borrowed")
	}
	for i, k := range []staticdata.KeyID{staticdata.KeyContentType, staticdata.KeyPath, staticdata.KeyTe, staticdata.KeyGrpcTimeout} {
		vStatic[i] = k.Atom()
	}
	b.Run("kinds=static_static/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, From(vStatic[i&3], vStatic[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=static_static/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, fromStaticStatic(vStatic[i&3], vStatic[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=static_interned/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, From(vStatic[i&3], vInterned[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=static_interned/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, fromStaticInterned(vStatic[i&3], vInterned[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=static_owned/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, From(vStatic[i&3], vOwned[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=static_owned/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, fromStaticOwned(vStatic[i&3], vOwned[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=static_borrowed/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, From(vStatic[i&3], vBorrowed[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=static_borrowed/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, fromStaticBorrowed(vStatic[i&3], vBorrowed[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=interned_static/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, From(vInterned[i&3], vStatic[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=interned_static/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, fromInternedStatic(vInterned[i&3], vStatic[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=interned_interned/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, From(vInterned[i&3], vInterned[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=interned_interned/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, fromInternedInterned(vInterned[i&3], vInterned[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=interned_owned/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, From(vInterned[i&3], vOwned[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=interned_owned/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, fromInternedOwned(vInterned[i&3], vOwned[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=interned_borrowed/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, From(vInterned[i&3], vBorrowed[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=interned_borrowed/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, fromInternedBorrowed(vInterned[i&3], vBorrowed[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=owned_static/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, From(vOwned[i&3], vStatic[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=owned_static/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, fromOwnedStatic(vOwned[i&3], vStatic[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=owned_interned/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, From(vOwned[i&3], vInterned[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=owned_interned/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, fromOwnedInterned(vOwned[i&3], vInterned[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=owned_owned/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, From(vOwned[i&3], vOwned[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=owned_owned/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, fromOwnedOwned(vOwned[i&3], vOwned[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=owned_borrowed/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, From(vOwned[i&3], vBorrowed[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=owned_borrowed/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, fromOwnedBorrowed(vOwned[i&3], vBorrowed[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=borrowed_static/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, From(vBorrowed[i&3], vStatic[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=borrowed_static/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, fromBorrowedStatic(vBorrowed[i&3], vStatic[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=borrowed_interned/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, From(vBorrowed[i&3], vInterned[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=borrowed_interned/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, fromBorrowedInterned(vBorrowed[i&3], vInterned[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=borrowed_owned/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, From(vBorrowed[i&3], vOwned[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=borrowed_owned/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, fromBorrowedOwned(vBorrowed[i&3], vOwned[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=borrowed_borrowed/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, From(vBorrowed[i&3], vBorrowed[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=borrowed_borrowed/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, fromBorrowedBorrowed(vBorrowed[i&3], vBorrowed[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	// FromStrings looks each side up in the static tier: beside From of
	// two BorrowString views, which looks nothing up, it shows what the
	// lookup costs, on a mix of atoms and strings with none.
	names := [4]string{":path", "x-request-id", "content-type", "x-tenant-id"}
	values := [4]string{"/helloworld.Greeter/SayHello", "application/grpc", "7a5f0c1e", "trailers"}
	b.Run("kinds=strings/impl=fromstrings", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, FromStrings(names[i&3], values[(i+1)&3]))
			i++
		}
		sinkSum = sum
	})
	b.Run("kinds=strings/impl=borrowstring", func(b *testing.B) {
		b.ReportAllocs()
		var sum uintptr
		i := 0
		for b.Loop() {
			sum = consume(sum, From(BorrowString(names[i&3]), BorrowString(values[(i+1)&3])))
			i++
		}
		sinkSum = sum
	})
}
