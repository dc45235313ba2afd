package mdelem

import (
	"unsafe"

	"github.com/metapack/metapack/intern"
	"github.com/metapack/metapack/staticdata"
)

// The four storage kinds a constructor accepts. Each is its own type, so a
// generic constructor learns the kind from its type argument.
type (
	// Static is a static-tier atom, such as staticdata.KeyPath.Atom().
	Static = *staticdata.Atom
	// Interned is a handle from package intern.
	Interned = intern.Handle
	// Owned is a byte slice the caller gives up: the batch keeps it without
	// copying, and the caller must not modify it afterwards.
	Owned []byte
	// Borrowed is a byte slice the caller keeps: the batch copies it into its
	// arena.
	Borrowed []byte
)

// BorrowString returns a Borrowed view of s without copying. The batch
// copies it on Append, so s needs to live only until then.
func BorrowString(s string) Borrowed {
	return Borrowed(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// Source is the set of storage kinds From accepts.
type Source interface {
	Static | Interned | Owned | Borrowed
}

// From builds a field from a name and a value of any storage kind. It is
// small enough to be inlined, and where it is, Go resolves the kinds at
// compile time, so each call site does only the work its kinds need. A
// Borrowed side still points at the caller's bytes: Batch.Append copies it.
func From[K, V Source](name K, value V) (f Field) {
	// Static is *staticdata.Atom and Interned a struct of one: both store
	// the atom pointer in Str.p. Owned and Borrowed are byte slices, whose
	// header fills Str.p, Str.n and, until the kind replaces it, Str.kind.
	*(*K)(unsafe.Pointer(&f.Name)) = name
	*(*V)(unsafe.Pointer(&f.Value)) = value
	f.Name.kind = uint(kindOf[K]())
	f.Value.kind = uint(kindOf[V]())
	return f
}

// kindOf returns the storage kind of type T. It switches on a nil pointer so
// that the switch costs the inliner little.
func kindOf[T Source]() Kind {
	switch any((*T)(nil)).(type) {
	case *Interned:
		return KindInterned
	case *Owned:
		return KindOwned
	case *Borrowed:
		return KindBorrowed
	}
	return KindStatic
}
