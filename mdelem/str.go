package mdelem

import "github.com/metapack/metapack/intern"

// Kind tells how a Str's bytes are stored.
type Kind uint8

const (
	KindStatic   Kind = iota // a static-tier atom
	KindInterned             // an interned (non-static) atom
	KindOwned                // bytes adopted from the caller
	KindBorrowed             // bytes copied, or to be copied, into a batch arena
)

var kindNames = [...]string{"static", "interned", "owned", "borrowed"}

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

// Kind returns how s is stored. A handle of a static-tier string is static,
// whichever constructor made it.
func (s Str) Kind() Kind {
	k := s.kind()
	if k == KindInterned && s.atomRaw().ID() != intern.NotStatic {
		return KindStatic
	}
	return k
}

// IsAtom reports whether s is static or interned, that is, a canonical atom.
func (s Str) IsAtom() bool { return s.kind() <= KindInterned && !s.isNil() }

// Handle returns s's intern handle, or the zero Handle when s holds plain
// bytes.
func (s Str) Handle() intern.Handle { return intern.FromAtom(s.Atom()) }

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
// pointer; two static atoms that differ are different strings, and so are
// two atoms with different hashes. Only the remaining cases compare bytes.
func (s Str) Equal(t Str) bool {
	a, b := s.Atom(), t.Atom()
	if a != nil && b != nil {
		if a == b {
			return true
		}
		if a.ID() != intern.NotStatic && b.ID() != intern.NotStatic || a.Hash() != b.Hash() {
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

// BorrowedStr returns a borrowed Str of b: Batch.Append copies it into the
// batch's arena. For callers that pick a field's storage at run time.
func BorrowedStr(b []byte) Str { return strBytes(b, KindBorrowed) }

// OwnedStr returns an owned Str of b: Batch.Append keeps b without copying,
// and the caller must not modify it afterwards.
func OwnedStr(b []byte) Str { return strBytes(b, KindOwned) }
