package staticdata

// KeyID identifies a well-known header key: every RFC 7541 static-table name
// and every gRPC well-known key. KeyUnknown (0) is "not a well-known key".
// Atoms[k] is the atom of key k.
type KeyID uint8

// Atom is one string of the static tier. Atoms live in the array [Atoms];
// compare them by pointer.
type Atom struct {
	S    string
	Hash uint64 // xxhash.Sum64String(S), unseeded
	ID   uint16 // index of this atom in Atoms
	// NameIndex is the first static-table index whose name is S, or 0.
	NameIndex uint8
	// Key is S's well-known key ID, or KeyUnknown.
	Key KeyID
}

// String returns the atom's string.
func (k KeyID) String() string { return Atoms[k].S }

// Atom returns the atom of a well-known key. It panics for an ID not below
// NumKeys.
func (k KeyID) Atom() *Atom { return &Atoms[k] }

// StaticTableLen is the number of entries of the RFC 7541 static table.
const StaticTableLen = 61

// Entry is one static-table entry.
type Entry struct {
	Name, Value *Atom
	// PairHash is PairHash(Name.Hash, Value.Hash).
	PairHash uint64
	// Size is the entry's size in RFC 7541 terms: name + value + 32 bytes.
	Size uint32
}

// PairHash mixes the hashes of a name and a value into the hash of a field.
func PairHash(name, value uint64) uint64 {
	h := name ^ (value * 0x9E3779B97F4A7C15)
	h ^= h >> 29
	return h * 0xBF58476D1CE4E5B9
}
