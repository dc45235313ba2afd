package tier

import (
	"math"

	"github.com/metapack/metapack/internal/httpfield"
)

// Atom is one canonical string: an element of the static tier, or a record
// that package intern made with [New]. Compare atoms by pointer. Its fields
// are read-only, so its length and hash always describe its string.
// staticdata.Atom is an alias of it.
type Atom struct {
	s    string
	hash uint64 // xxhash.Sum64String(s), unseeded
	id   uint16 // index of this atom in the static tier, or NotStatic
	// nameIndex is the first static-table index whose name is s, or 0.
	nameIndex uint8
	// qName is 1 + the first QPACK static index whose name is s, or 0.
	qName uint8
	// key is s's well-known key ID, or 0.
	key uint8
	// name reports whether s is a valid lowercase HTTP/2 field name.
	name bool
}

// NotStatic is the ID of an atom that is not in the static tier.
const NotStatic = math.MaxUint16

// New returns the record of a string that is not in the static tier, with
// its hash, which must be xxhash.Sum64String(s): its ID is NotStatic, its
// name index 0 and its key 0. Package intern makes its records with it.
func New(s string, hash uint64) Atom {
	return Atom{s: s, hash: hash, id: NotStatic, name: httpfield.IsName(s)}
}

// String returns the atom's string, or "" for a nil atom.
func (a *Atom) String() string {
	if a == nil {
		return ""
	}
	return a.s
}

// Key returns the atom's well-known key ID, or KeyUnknown, also for a nil
// atom.
func (a *Atom) Key() KeyID {
	if a == nil {
		return 0
	}
	return KeyID(a.key)
}

// IsName reports whether the atom's string is a valid lowercase HTTP/2
// field name: a token, or a ':' and a token for a pseudo-header. Values
// of the static table such as "/", "" or "gzip, deflate" are not names;
// every well-known key is. It reports false for a nil atom.
func (a *Atom) IsName() bool { return a != nil && a.name }

// KeyID identifies a well-known header key: every RFC 7541 static-table
// name and every gRPC well-known key, such as KeyPath or KeyGrpcTimeout.
// KeyUnknown (0) is "not a well-known key".
type KeyID uint8

// String returns the key's header name, or "" for KeyUnknown and for an
// ID that names no key.
func (k KeyID) String() string { return k.Atom().String() }

// Atom returns the atom of the key's header name; the empty string's for
// KeyUnknown, and nil for an ID that names no key.
func (k KeyID) Atom() *Atom {
	if k >= NumKeys {
		return nil
	}
	return &atoms[k]
}

// The methods above are the user's, and nil-safe. The functions below are
// the codec's: they take a non-nil atom and cost no nil check, so the hot
// paths that call them inline (#27: a nil check pushed mdelem's
// Batch.index over the inliner's budget).

// Str returns a's string.
func Str(a *Atom) string { return a.s }

// Len returns the length of a's string.
func Len(a *Atom) int { return len(a.s) }

// Hash returns xxhash.Sum64String of a's string, unseeded.
func Hash(a *Atom) uint64 { return a.hash }

// IsStatic reports whether a is in the static tier.
func IsStatic(a *Atom) bool { return a.id != NotStatic }

// NameIndex returns the first static-table index whose name is a's
// string, or 0.
func NameIndex(a *Atom) uint8 { return a.nameIndex }

// KeyOf returns a's well-known key ID, or 0.
func KeyOf(a *Atom) uint8 { return a.key }

// ID returns a's index in the static tier, or NotStatic.
func ID(a *Atom) uint16 { return a.id }

// ByID returns the static-tier atom with the given ID, or nil when id is
// not below NumAtoms. Key ID k is atom ID k.
func ByID(id int) *Atom {
	if uint(id) >= NumAtoms {
		return nil
	}
	return &atoms[id]
}
