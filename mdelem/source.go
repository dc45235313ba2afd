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
	// words. The words are read back one at a time, so the Strs stay in
	// registers, and Go's SSA forwards each read from its store or from
	// the zeroing, so no word goes through memory at all: both scratches
	// are one variable, zeroed once, and the name is read before the
	// value is stored (a read past more than a few stores is not
	// forwarded).
	//
	// The kind is worked out inline rather than by a helper: a generic
	// helper costs a dictionary lookup per call, which would put From over
	// the inliner's budget, and only an inlined From has its switches
	// folded at compile time. A slice's size gives tagOwned (the bytes
	// bit and pinBit); one two-way switch per side then flips in
	// tagInterned, which makes an atom interned, and makes owned bytes
	// borrowed and clears their pinBit.
	var w struct{ n, v argWords }
	*(*K)(unsafe.Pointer(&w.n)) = name
	ns := Str{w.n.p, uint64(w.n.n)}
	*(*V)(unsafe.Pointer(&w.v)) = value
	nt := uint64(unsafe.Sizeof(name)/unsafe.Sizeof([]byte(nil))) * tagOwned
	vt := uint64(unsafe.Sizeof(value)/unsafe.Sizeof([]byte(nil))) * tagOwned
	switch any((*K)(nil)).(type) {
	case *Interned, *Borrowed: // the odd kinds
		nt ^= tagInterned
	}
	switch any((*V)(nil)).(type) {
	case *Interned, *Borrowed:
		vt ^= tagInterned
	}
	ns.tag |= nt
	return Field{Name: ns, Value: Str{w.v.p, uint64(w.v.n) | vt}}
}

// argWords has room for any Source: a slice header, or an atom pointer
// followed by two zero words.
type argWords struct {
	p unsafe.Pointer
	// n is a slice's length, or 0 after an atom pointer. It is a uint, as
	// a slice's length is: where int is 32 bits, a uint64 here would take
	// in the capacity too.
	n    uint
	_cap uint
}
