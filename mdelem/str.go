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
// Its words start like the constructor's argument: an atom pointer (static
// and interned kinds) or a byte slice header (owned and borrowed kinds), so
// that From stores any kind with one copy; the kind then overwrites the
// slice's capacity, which a header value never needs. Three words keep a
// Field small enough for Go to pass in registers.
type Str struct {
	p    unsafe.Pointer // *staticdata.Atom, or the first byte of the bytes
	n    int            // length of the bytes
	kind uint           // a Kind; a full word, where a slice has its capacity
}

// StrAtom returns the Str of an atom: static when the atom is in the static
// tier, interned otherwise.
func StrAtom(a *staticdata.Atom) Str {
	k := KindStatic
	if a.ID == intern.NotStatic {
		k = KindInterned
	}
	return Str{p: unsafe.Pointer(a), kind: uint(k)}
}

// strBytes returns the Str of bytes of kind k (owned or borrowed).
func strBytes(b []byte, k Kind) Str {
	return Str{p: unsafe.Pointer(unsafe.SliceData(b)), n: len(b), kind: uint(k)}
}

// Kind returns how s is stored. A handle of a static-tier string is static,
// whichever constructor made it.
func (s Str) Kind() Kind {
	if s.kind == uint(KindInterned) && (*staticdata.Atom)(s.p).ID != intern.NotStatic {
		return KindStatic
	}
	return Kind(s.kind)
}

// IsAtom reports whether s is static or interned, that is, a canonical atom.
func (s Str) IsAtom() bool { return s.kind <= uint(KindInterned) && s.p != nil }

// Atom returns s's atom, or nil when s holds plain bytes.
func (s Str) Atom() *staticdata.Atom {
	if s.kind <= uint(KindInterned) {
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
		return len(a.S)
	}
	return s.n
}

// Bytes returns s's bytes without copying. They must not be modified, and
// for a borrowed or owned Str in a batch they live until the batch's Reset.
func (s Str) Bytes() []byte {
	if a := s.Atom(); a != nil {
		return unsafe.Slice(unsafe.StringData(a.S), len(a.S))
	}
	return unsafe.Slice((*byte)(s.p), s.n)
}

// String returns s as a string. It allocates for owned and borrowed bytes;
// atoms return their canonical string.
func (s Str) String() string {
	if a := s.Atom(); a != nil {
		return a.S
	}
	return string(s.Bytes())
}

// UnsafeString returns s as a string without copying. For owned or borrowed
// bytes the result is valid only while the bytes are (for a batch, until
// Reset).
func (s Str) UnsafeString() string {
	if a := s.Atom(); a != nil {
		return a.S
	}
	return unsafe.String((*byte)(s.p), s.n)
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
		if a.ID != intern.NotStatic && b.ID != intern.NotStatic || a.Hash != b.Hash {
			return false
		}
		return a.S == b.S // same hash, different interners
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
