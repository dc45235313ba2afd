package mdelem

import (
	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/staticdata"
)

// Kind tells how a Str's bytes are stored.
type Kind uint8

const (
	KindStatic   Kind = iota // a static-tier atom
	KindInterned             // an interned (non-static) atom
	KindOwned                // bytes adopted from the caller
	KindBorrowed             // bytes copied, or to be copied, into a batch arena
	// KindInvalid is the Kind of a Str that holds no string: the zero Str,
	// and the Str of a nil atom or of the zero intern.Handle. No tag
	// stores it: Kind reports it for an atom kind with no atom.
	KindInvalid
)

var kindNames = [...]string{"static", "interned", "owned", "borrowed", "invalid"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "invalid"
}

// Layout of Str.tag.
const (
	kindShift     = 56
	lenMask       = 1<<kindShift - 1
	neverIndexBit = 1 << 63 // set in a Field's Name.tag only

	// pinBit is set in the tags of the two kinds that may keep memory
	// alive which a batch does not own, interned and owned, so that
	// Append tells whether a field pins anything with one test of its
	// two tags. Bytes a batch copied into its arena are owned and carry
	// it too: appended to another batch, they pin the first one's arena.
	pinBit = 1 << 58

	tagStatic   = uint64(KindStatic) << kindShift
	tagInterned = uint64(KindInterned)<<kindShift | pinBit
	tagOwned    = uint64(KindOwned)<<kindShift | pinBit
	tagBorrowed = uint64(KindBorrowed) << kindShift
	// tagBytes is set in the tags of the two byte kinds, owned and
	// borrowed, and clear in those of the two atom kinds.
	tagBytes = tagOwned & tagBorrowed
)

// kind returns s's storage kind as it was stored, without the static-tier
// check that Kind makes.
func (s Str) kind() Kind { return Kind(s.tag >> kindShift & 3) }

// n returns the length of plain bytes (0 for atoms).
func (s Str) n() int { return int(s.tag & lenMask) }

// Kind returns how s is stored, or KindInvalid when s holds no string.
// The kind of an atom is the atom's own, whichever constructor made the
// Str: an atom with a static-tier ID is static (also as an intern.Handle),
// and any other, a record of package intern, is interned, even when From
// was given it as Static.
func (s Str) Kind() Kind {
	if s.tag&tagBytes != 0 {
		return s.kind()
	}
	return s.atomKind()
}

// atomKind is the kind resolveAtom gives s's atom. It is out of line so that
// Kind inlines, for the bytes kinds that callers test on hot paths.
//
//go:noinline
func (s Str) atomKind() Kind {
	_, k := resolveAtom(s.atomRaw())
	return k
}

// IsValid reports whether s holds a string, possibly empty: false only for
// the zero Str and the Str of a nil atom or of the zero intern.Handle,
// which [Batch.Append] rejects. Empty bytes and the static atom of ""
// are valid. A Str that holds no string reads as empty in every other
// method (Len, String, Bytes, Equal...); only IsValid and Kind tell it
// apart.
func (s Str) IsValid() bool { return s.tag&tagBytes != 0 || s.atomRaw() != nil }

// IsAtom reports whether s holds an atom pointer (static or interned).
func (s Str) IsAtom() bool { return s.kind() <= KindInterned && !s.isNil() }

// resolveAtom returns the canonical atom that a, the atom pointer of an
// atom-kind Str, stands for, and its kind:
//   - nil: no atom, KindInvalid;
//   - a record outside the static tier (ID NotStatic): a, KindInterned;
//   - the static-tier atom of its ID: a, KindStatic;
//   - a copy of that atom (Atom's fields are unexported, so an Atom value
//     with a static ID can only be a copy of it, or the zero Atom, whose
//     string "" is atom 0's): the static-tier atom, KindStatic;
//   - anything else, which only unsafe code can make: a, KindStatic.
func resolveAtom(a *staticdata.Atom) (*staticdata.Atom, Kind) {
	if a == nil {
		return nil, KindInvalid
	}
	if tier.ID((*tier.Atom)(a)) == tier.NotStatic {
		return a, KindInterned
	}
	if c := tier.ByID(int(tier.ID((*tier.Atom)(a)))); c != nil && c.String() == a.String() {
		return (*staticdata.Atom)(c), KindStatic
	}
	return a, KindStatic
}

// Len returns the length of s in bytes.
func (s Str) Len() int {
	if a := s.Atom(); a != nil {
		return len(a.String())
	}
	return s.n()
}

// String returns s as a string. It allocates for owned and borrowed bytes;
// atoms return their canonical string.
func (s Str) String() string {
	if a := s.Atom(); a != nil {
		return a.String()
	}
	return string(s.bytes())
}

// Equal reports whether s and t hold the same bytes. Two atoms compare by
// pointer, after a copy of a static atom is taken for the atom (see
// resolveAtom), so a copy equals the atom; two different static-tier
// atoms are different strings, and so are two interned atoms with
// different hashes. Only the remaining cases compare bytes.
func (s Str) Equal(t Str) bool {
	a, b := s.Atom(), t.Atom()
	if a != nil && b != nil {
		if a == b {
			return true
		}
		ca, ka := resolveAtom(a)
		cb, kb := resolveAtom(b)
		switch {
		case ca == cb:
			return true
		case ka == KindStatic && kb == KindStatic && (*tier.Atom)(ca) == tier.ByID(int(tier.ID((*tier.Atom)(ca)))) && (*tier.Atom)(cb) == tier.ByID(int(tier.ID((*tier.Atom)(cb)))):
			return false // two static-tier atoms: two strings
		case ka == KindInterned && kb == KindInterned && (*tier.Atom)(a).Hash() != (*tier.Atom)(b).Hash():
			return false
		}
		return a.String() == b.String() // same hash, different interners
	}
	if a != nil {
		return t.EqualString(a.String())
	}
	if b != nil {
		return s.EqualString(b.String())
	}
	return string(s.bytes()) == string(t.bytes())
}

// EqualString reports whether s holds the bytes of x.
func (s Str) EqualString(x string) bool {
	if a := s.Atom(); a != nil {
		return a.String() == x
	}
	return string(s.bytes()) == x
}

// equalBytes reports whether s holds the bytes of x.
func (s Str) equalBytes(x []byte) bool {
	if a := s.Atom(); a != nil {
		return a.String() == string(x)
	}
	return string(s.bytes()) == string(x)
}
