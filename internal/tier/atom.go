package tier

import (
	"math"

	"github.com/metapack/metapack/internal/tabledef"
)

// Atom is one canonical string: an element of the static tier, or a record
// that package intern made with [New]. Compare atoms by pointer. Its fields
// are read-only, so the lengths and hashes the codec reads from an atom
// always describe its string. staticdata.Atom is a type defined on it; the
// two pointer types convert freely.
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
	return Atom{s: s, hash: hash, id: NotStatic, name: tabledef.IsName(s)}
}

// String returns the atom's string.
func (a *Atom) String() string { return a.s }

// Len returns the length of the atom's string.
func (a *Atom) Len() int { return len(a.s) }

// Hash returns xxhash.Sum64String of the atom's string, unseeded.
func (a *Atom) Hash() uint64 { return a.hash }

// IsStatic reports whether the atom is in the static tier.
func (a *Atom) IsStatic() bool { return a.id != NotStatic }

// NameIndex returns the first static-table index whose name is the atom's
// string, or 0.
func (a *Atom) NameIndex() uint8 { return a.nameIndex }

// Key returns the atom's well-known key ID, or 0.
func (a *Atom) Key() uint8 { return a.key }

// IsName reports whether the atom's string is a valid lowercase field name.
func (a *Atom) IsName() bool { return a.name }

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
