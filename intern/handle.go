package intern

import "github.com/metapack/metapack/staticdata"

// Handle is the canonical handle of an interned string. Two handles are
// equal (==) exactly when their strings are equal, provided both come from
// the static tier or from the same [Table]; comparing them compares one
// pointer. The zero Handle is "not interned": its Atom is nil.
type Handle struct {
	a *staticdata.Atom
}

// Atom returns the handle's atom, or nil for the zero Handle. For a
// static-tier string it is the atom [staticdata.Lookup] returns.
func (h Handle) Atom() *staticdata.Atom { return h.a }
