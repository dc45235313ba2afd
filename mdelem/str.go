package mdelem

import (
	"unsafe"

	"github.com/metapack/metapack/intern"
	"github.com/metapack/metapack/staticdata"
)

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

// Str is a header name or value. The zero Str is the empty string.
//
// It is two words: a pointer and a tag word holding the length of plain
// bytes, the Kind, and (in a Field's Name) the field's never-index flag.
// Two words per Str make a Field four words, which Go keeps in registers
// and copies word by word; a larger Field lives in memory, and copying it
// with wide loads right after it was stored stalls on store forwarding.
type Str struct {
	p   unsafe.Pointer // *staticdata.Atom, or the first byte of the bytes
	tag uint64         // length | kind<<kindShift | neverIndexBit
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

// StrAtom returns the Str of an atom: static when the atom is in the static
// tier, interned otherwise.
func StrAtom(a *staticdata.Atom) Str {
	t := tagStatic
	if a.ID() == intern.NotStatic {
		t = tagInterned
	}
	return Str{p: unsafe.Pointer(a), tag: t}
}

// strBytes returns the Str of bytes of kind k (owned or borrowed).
func strBytes(b []byte, k Kind) Str {
	t := uint64(k) << kindShift
	if k == KindOwned {
		t |= pinBit
	}
	return Str{p: unsafe.Pointer(unsafe.SliceData(b)), tag: uint64(len(b)) | t}
}

// Kind returns how s is stored. A handle of a static-tier string is static,
// whichever constructor made it.
func (s Str) Kind() Kind {
	k := s.kind()
	if k == KindInterned && (*staticdata.Atom)(s.p).ID() != intern.NotStatic {
		return KindStatic
	}
	return k
}

// IsAtom reports whether s is static or interned, that is, a canonical atom.
func (s Str) IsAtom() bool { return s.kind() <= KindInterned && s.p != nil }

// Atom returns s's atom, or nil when s holds plain bytes.
func (s Str) Atom() *staticdata.Atom {
	if s.tag&tagBytes == 0 {
		return (*staticdata.Atom)(s.p)
	}
	return nil
}

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

// Bytes returns s's bytes without copying. They must not be modified, and
// for a borrowed or owned Str in a batch they live until the batch's Reset.
func (s Str) Bytes() []byte {
	if a := s.Atom(); a != nil {
		return unsafe.Slice(unsafe.StringData(a.String()), len(a.String()))
	}
	return unsafe.Slice((*byte)(s.p), s.n())
}

// String returns s as a string. It allocates for owned and borrowed bytes;
// atoms return their canonical string.
func (s Str) String() string {
	if a := s.Atom(); a != nil {
		return a.String()
	}
	return string(s.Bytes())
}

// UnsafeString returns s as a string without copying. For owned or borrowed
// bytes the result is valid only while the bytes are (for a batch, until
// Reset).
func (s Str) UnsafeString() string {
	if a := s.Atom(); a != nil {
		return a.String()
	}
	return unsafe.String((*byte)(s.p), s.n())
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
	return s.UnsafeString() == t.UnsafeString()
}

// EqualString reports whether s holds the bytes of x.
func (s Str) EqualString(x string) bool {
	return s.UnsafeString() == x
}

// BorrowedStr returns a borrowed Str of b: Batch.Append copies it into the
// batch's arena. For callers that pick a field's storage at run time.
func BorrowedStr(b []byte) Str { return strBytes(b, KindBorrowed) }

// OwnedStr returns an owned Str of b: Batch.Append keeps b without copying,
// and the caller must not modify it afterwards.
func OwnedStr(b []byte) Str { return strBytes(b, KindOwned) }
