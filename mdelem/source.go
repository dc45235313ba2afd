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
func From[K, V Source](name K, value V) Field {
	// Static is *staticdata.Atom and Interned a struct of one: stored into
	// a zeroed argWords, each leaves the atom pointer in p and 0 in n.
	// Owned and Borrowed are byte slices, whose header fills all three
	// words. The words are read back one at a time into the Strs, which
	// stay in registers.
	//
	// The kind switches are written out here rather than in a helper: a
	// generic helper costs a dictionary lookup per call, which would put
	// From over the inliner's budget, and only an inlined From has its
	// switches folded at compile time.
	var n, v argWords
	*(*K)(unsafe.Pointer(&n)) = name
	*(*V)(unsafe.Pointer(&v)) = value
	var nt, vt uint64 // the kind tags; KindStatic's is 0
	switch any((*K)(nil)).(type) {
	case *Interned:
		nt = tagInterned
	case *Owned:
		nt = tagOwned
	case *Borrowed:
		nt = tagBorrowed
	}
	switch any((*V)(nil)).(type) {
	case *Interned:
		vt = tagInterned
	case *Owned:
		vt = tagOwned
	case *Borrowed:
		vt = tagBorrowed
	}
	return Field{Name: Str{n.p, n.n | nt}, Value: Str{v.p, v.n | vt}}
}

// argWords has room for any Source: a slice header, or an atom pointer
// followed by two zero words.
type argWords struct {
	p    unsafe.Pointer
	n    uint64
	_cap uint64
}
