package tier

import "math"

// KeyID identifies a well-known header key: every RFC 7541 static-table name
// and every gRPC well-known key. 0 is "not a well-known key" (staticdata's
// KeyUnknown). k.Atom() is the atom of key k.
type KeyID uint8

// Atom is one canonical string: an element of the static tier, or a record
// that package intern made with [New]. Compare atoms by pointer. Its fields
// are read-only: nothing outside this package can change them, so the
// lengths and hashes the codec reads from an atom always describe its
// string.
type Atom struct {
	s    string
	hash uint64 // xxhash.Sum64String(s), unseeded
	id   uint16 // index of this atom in the static tier, or NotStatic
	// nameIndex is the first static-table index whose name is s, or 0.
	nameIndex uint8
	// key is s's well-known key ID, or 0.
	key KeyID
}

// NotStatic is the ID of an atom that is not in the static tier.
const NotStatic = math.MaxUint16

// New returns the record of a string that is not in the static tier, with
// its hash, which must be xxhash.Sum64String(s): its ID is NotStatic, its
// name index 0 and its key 0. Package intern makes its canonical records
// with it. The codec trusts the hash: two records of the same string with
// different hashes compare unequal, and an encoder keyed by a wrong hash
// finds no match in its table (the bytes it sends are still right).
func New(s string, hash uint64) Atom {
	return Atom{s: s, hash: hash, id: NotStatic}
}

// String returns the atom's string.
func (a *Atom) String() string { return a.s }

// Len returns the length of the atom's string.
func (a *Atom) Len() int { return len(a.s) }

// Hash returns xxhash.Sum64String of the atom's string, unseeded.
func (a *Atom) Hash() uint64 { return a.hash }

// ID returns a's index in the static tier, or NotStatic. It is a function,
// not a method, so that users of staticdata.Atom, who have no use for the
// index, do not see it.
func ID(a *Atom) uint16 { return a.id }

// IsStatic reports whether the atom is in the static tier.
func (a *Atom) IsStatic() bool { return a.id != NotStatic }

// NameIndex returns the first static-table index whose name is the atom's
// string, or 0.
func (a *Atom) NameIndex() uint8 { return a.nameIndex }

// Key returns the atom's well-known key ID, or 0 (KeyUnknown).
func (a *Atom) Key() KeyID { return a.key }

// ByID returns the static-tier atom with the given ID, or nil when id is
// not below NumAtoms.
func ByID(id int) *Atom {
	if uint(id) >= NumAtoms {
		return nil
	}
	return &atoms[id]
}

// String returns the key's string; "" for an ID not below NumKeys.
func (k KeyID) String() string {
	if k >= NumKeys {
		return ""
	}
	return atoms[k].s
}

// Atom returns the atom of a well-known key (KeyUnknown's is the empty
// string), or nil for an ID not below NumKeys, which mdelem takes as no
// string at all.
func (k KeyID) Atom() *Atom {
	if k >= NumKeys {
		return nil
	}
	return &atoms[k]
}
