package mdelem

import (
	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/staticdata"
)

// Layout of Str.tag: the length of plain bytes, the storage kind, and in
// a Field's Name the never-index mark.
const (
	kindShift     = 56
	lenMask       = 1<<kindShift - 1
	kindMask      = 3 << kindShift
	neverIndexBit = 1 << 63 // set in a Field's Name.tag only

	// pinBit marks the kinds that may keep memory alive which a batch does
	// not own, interned and owned (arena copies too), so that Append tests
	// whether a field pins anything with one test of its two tags.
	pinBit = 1 << 58

	tagStatic   = 0 << kindShift
	tagInterned = 1<<kindShift | pinBit
	tagOwned    = 2<<kindShift | pinBit
	tagBorrowed = 3 << kindShift
	tagBytes    = tagOwned & tagBorrowed // set for the byte kinds only
)

// n returns the length of plain bytes (0 for atoms).
func (s Str) n() int { return int(s.tag & lenMask) }

// IsValid reports whether s holds a string, possibly empty: false only for
// the zero Str and the Str of a nil atom or of the zero intern.Handle,
// which [Batch.Append] rejects, and which read as empty elsewhere.
func (s Str) IsValid() bool { return s.tag&tagBytes != 0 || s.atomRaw() != nil }

// IsBorrowed reports whether s holds [Borrowed] bytes, which Batch.Append
// copies and which must not be kept past the call that gave them; the
// bytes of a field in a batch are not borrowed.
func (s Str) IsBorrowed() bool { return s.tag&kindMask == tagBorrowed }

// resolveAtom returns the canonical atom that a, the atom pointer of an
// atom-kind Str, stands for, and whether it is in the static tier: nil and
// records outside the tier stand for themselves (false); a copy of a
// static atom (the only way to get an Atom value with a static ID, its
// fields being unexported, the zero Atom being atom 0's copy) stands for
// it (true); anything else, which only unsafe code makes, for itself (true).
func resolveAtom(a *staticdata.Atom) (*staticdata.Atom, bool) {
	if a == nil || tier.ID(a) == tier.NotStatic {
		return a, false
	}
	if c := tier.ByID(int(tier.ID(a))); c != nil && c.String() == a.String() {
		return c, true
	}
	return a, true
}

// Len returns the length of s in bytes.
func (s Str) Len() int {
	if a := s.Atom(); a != nil {
		return len(tier.Str(a))
	}
	return s.n()
}

// String returns s as a string. It allocates for owned and borrowed bytes;
// atoms return their canonical string.
func (s Str) String() string {
	if a := s.Atom(); a != nil {
		return tier.Str(a)
	}
	return string(s.bytes())
}

// Equal reports whether s and t hold the same bytes.
func (s Str) Equal(t Str) bool {
	a, b := s.Atom(), t.Atom()
	if a != nil && b != nil {
		if a == b {
			return true
		}
		// Distinct static-tier atoms (copies resolved) differ, and so do
		// interned atoms with different hashes.
		ca, sa := resolveAtom(a)
		cb, sb := resolveAtom(b)
		switch {
		case ca == cb:
			return true
		case sa && sb && ca == tier.ByID(int(tier.ID(ca))) && cb == tier.ByID(int(tier.ID(cb))):
			return false
		case !sa && !sb && tier.Hash(a) != tier.Hash(b):
			return false
		}
		return a.String() == b.String() // same hash, different interners
	}
	if a != nil {
		return t.equal(a.String())
	}
	if b != nil {
		return s.equal(b.String())
	}
	return string(s.bytes()) == string(t.bytes())
}

// equal reports whether s holds the bytes of x.
func (s Str) equal(x string) bool {
	if a := s.Atom(); a != nil {
		return a.String() == x
	}
	return string(s.bytes()) == x
}
