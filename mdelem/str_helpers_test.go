package mdelem

import (
	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/staticdata"
)

// strAtom returns the Str of an atom for tests that build one side at a
// time: tagged static when the atom's ID is in the static tier, interned
// otherwise, as From tags a Static and an Interned. strAtom(nil) holds
// no string.
func strAtom(a *staticdata.Atom) Str {
	if a != nil && tier.ID(a) == tier.NotStatic {
		return atomStr(a, tagInterned)
	}
	return atomStr(a, tagStatic)
}

// ownedStr returns an owned Str of b, as From(Owned(b), ...).Name.
func ownedStr(b []byte) Str { return bytesStr(b, uint64(len(b))|tagOwned) }

// borrowedStr returns a borrowed Str of b, as From(Borrowed(b), ...).Name.
func borrowedStr(b []byte) Str { return bytesStr(b, uint64(len(b))|tagBorrowed) }
