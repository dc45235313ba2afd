package intern

import (
	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/staticdata"
)

// Handle is the canonical handle of an interned string. Two valid handles are
// equal (==) exactly when their strings are equal, provided both come from the
// static tier or from the same [Table]. Comparing handles compares one
// pointer.
//
// The zero Handle is "not interned": IsValid reports false, String returns "".
type Handle struct {
	a *staticdata.Atom
}

// FromAtom returns the handle of a static-tier atom, or of an atom that a
// handle's Atom method returned. FromAtom(nil) is the zero Handle.
//
// A handle's atom is always canonical, so that == between handles keeps
// its meaning: an atom with a static ID that is not the static tier's own
// is resolved to it when it is a copy of it (Atom's fields are
// unexported, so an Atom value with a static ID can only be a copy of
// that atom, or the zero Atom, whose string "" is atom 0's); any other,
// which only unsafe code can make, gives the zero Handle. An atom outside
// the static tier is taken as it is: it must be a record of a Table,
// which is how a handle's Atom method returns one.
func FromAtom(a *staticdata.Atom) Handle {
	if a == nil || tier.ID(a) == tier.NotStatic {
		return Handle{a}
	}
	if c := tier.ByID(int(tier.ID(a))); c == a || c != nil && c.String() == a.String() {
		return Handle{c}
	}
	return Handle{}
}

// Atom returns the handle's record, or nil for the zero Handle. For a
// static-tier string it is the static tier's own atom, the one
// [staticdata.Lookup] returns; for other strings IsStatic, NameIndex and
// Key report false and 0. Its fields are read-only.
func (h Handle) Atom() *staticdata.Atom { return h.a }

// IsValid reports whether h is a handle of an interned string, that is, not
// the zero Handle.
func (h Handle) IsValid() bool { return h.a != nil }

// IsStatic reports whether h's string is in the static tier.
func (h Handle) IsStatic() bool { return h.a != nil && tier.ID(h.a) != tier.NotStatic }

// String returns the interned string. The result shares the canonical bytes.
func (h Handle) String() string {
	if h.a == nil {
		return ""
	}
	return h.a.String()
}

// Len returns the length of the interned string.
func (h Handle) Len() int {
	if h.a == nil {
		return 0
	}
	return len(h.a.String())
}

// Hash returns xxhash.Sum64String(h.String()), unseeded, for a valid handle,
// and 0 for the zero Handle. It is the hash the static tier carries, so it
// can index structures that also hold strings that were not interned.
func (h Handle) Hash() uint64 {
	if h.a == nil {
		return 0
	}
	return h.a.Hash()
}

// NameIndex returns the first RFC 7541 static-table index whose name is h's
// string, or 0 if there is none.
func (h Handle) NameIndex() uint8 {
	if h.a == nil {
		return 0
	}
	return h.a.NameIndex()
}

// Key returns the well-known key ID of h's string, or
// [staticdata.KeyUnknown].
func (h Handle) Key() staticdata.KeyID {
	if h.a == nil {
		return staticdata.KeyUnknown
	}
	return h.a.Key()
}

// Static returns the static-tier handle of b's string, if there is one. It
// neither allocates nor keeps b.
func Static(b []byte) (Handle, bool) {
	a := lookupStatic(b)
	return Handle{a}, a != nil
}

// StaticString is [Static] for a string.
func StaticString(s string) (Handle, bool) {
	a := lookupStatic(s)
	return Handle{a}, a != nil
}

// lookupStatic is staticdata.Lookup behind its MayBeAtomOf filter, which
// turns most strings that are not in the static tier away before the hash.
func lookupStatic[T string | []byte](b T) *staticdata.Atom {
	if !tier.MayBeAtom(b) {
		return nil
	}
	return staticdata.Lookup(b)
}
