package mdelem

import (
	"testing"
	"unsafe"

	"github.com/metapack/metapack/intern"
	sd "github.com/metapack/metapack/staticdata"
)

// Handwritten, non-generic constructors: one per side kind, and one per
// combination below. BenchmarkFrom compares them with the generic From.
func hStatic(a Static) Str                      { return Str{p: unsafe.Pointer(a), kind: uint(KindStatic)} }
func hInterned(h Interned) Str                  { return Str{p: unsafe.Pointer(h.Atom()), kind: uint(KindInterned)} }
func hOwned(b Owned) Str                        { return strBytes(b, KindOwned) }
func hBorrowed(b Borrowed) Str                  { return strBytes(b, KindBorrowed) }
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

var sinkField Field

// BenchmarkFrom checks that the generic constructor, inlined, costs what a
// handwritten one for the same kinds does: its kind switches fold away.
func BenchmarkFrom(b *testing.B) {
	tab := intern.New(intern.DefaultLimits)
	vInterned, _ := tab.MakeString("x-tenant-id")
	vStatic := sd.KeyContentType.Atom()
	vOwned := Owned("application/grpc+proto")
	vBorrowed := Borrowed("/pkg.Service/Method")
	b.Run("kinds=static_static/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = From(vStatic, vStatic)
		}
	})
	b.Run("kinds=static_static/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = fromStaticStatic(vStatic, vStatic)
		}
	})
	b.Run("kinds=static_interned/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = From(vStatic, vInterned)
		}
	})
	b.Run("kinds=static_interned/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = fromStaticInterned(vStatic, vInterned)
		}
	})
	b.Run("kinds=static_owned/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = From(vStatic, vOwned)
		}
	})
	b.Run("kinds=static_owned/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = fromStaticOwned(vStatic, vOwned)
		}
	})
	b.Run("kinds=static_borrowed/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = From(vStatic, vBorrowed)
		}
	})
	b.Run("kinds=static_borrowed/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = fromStaticBorrowed(vStatic, vBorrowed)
		}
	})
	b.Run("kinds=interned_static/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = From(vInterned, vStatic)
		}
	})
	b.Run("kinds=interned_static/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = fromInternedStatic(vInterned, vStatic)
		}
	})
	b.Run("kinds=interned_interned/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = From(vInterned, vInterned)
		}
	})
	b.Run("kinds=interned_interned/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = fromInternedInterned(vInterned, vInterned)
		}
	})
	b.Run("kinds=interned_owned/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = From(vInterned, vOwned)
		}
	})
	b.Run("kinds=interned_owned/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = fromInternedOwned(vInterned, vOwned)
		}
	})
	b.Run("kinds=interned_borrowed/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = From(vInterned, vBorrowed)
		}
	})
	b.Run("kinds=interned_borrowed/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = fromInternedBorrowed(vInterned, vBorrowed)
		}
	})
	b.Run("kinds=owned_static/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = From(vOwned, vStatic)
		}
	})
	b.Run("kinds=owned_static/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = fromOwnedStatic(vOwned, vStatic)
		}
	})
	b.Run("kinds=owned_interned/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = From(vOwned, vInterned)
		}
	})
	b.Run("kinds=owned_interned/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = fromOwnedInterned(vOwned, vInterned)
		}
	})
	b.Run("kinds=owned_owned/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = From(vOwned, vOwned)
		}
	})
	b.Run("kinds=owned_owned/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = fromOwnedOwned(vOwned, vOwned)
		}
	})
	b.Run("kinds=owned_borrowed/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = From(vOwned, vBorrowed)
		}
	})
	b.Run("kinds=owned_borrowed/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = fromOwnedBorrowed(vOwned, vBorrowed)
		}
	})
	b.Run("kinds=borrowed_static/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = From(vBorrowed, vStatic)
		}
	})
	b.Run("kinds=borrowed_static/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = fromBorrowedStatic(vBorrowed, vStatic)
		}
	})
	b.Run("kinds=borrowed_interned/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = From(vBorrowed, vInterned)
		}
	})
	b.Run("kinds=borrowed_interned/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = fromBorrowedInterned(vBorrowed, vInterned)
		}
	})
	b.Run("kinds=borrowed_owned/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = From(vBorrowed, vOwned)
		}
	})
	b.Run("kinds=borrowed_owned/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = fromBorrowedOwned(vBorrowed, vOwned)
		}
	})
	b.Run("kinds=borrowed_borrowed/impl=generic", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = From(vBorrowed, vBorrowed)
		}
	})
	b.Run("kinds=borrowed_borrowed/impl=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkField = fromBorrowedBorrowed(vBorrowed, vBorrowed)
		}
	})
}
