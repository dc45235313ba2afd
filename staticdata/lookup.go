package staticdata

// Lookup returns the static-tier atom whose string is s, or nil. It does not
// allocate.
func Lookup(s string) *Atom { return LookupOf(s) }

// LookupBytes is Lookup for a byte slice. It neither allocates nor keeps b.
func LookupBytes(b []byte) *Atom { return LookupOf(b) }

// LookupOf is Lookup for a string or a byte slice, for callers that are
// generic over both. It neither allocates nor keeps s.
func LookupOf[T string | []byte](s T) *Atom {
	if len(s) == 0 {
		return &atoms[0]
	}
	a := &atoms[phashSlots[phash(s)]]
	// An empty slot holds atom 0, the empty string, which cannot equal s.
	// The conversion in a comparison does not allocate.
	if a.s != string(s) {
		return nil
	}
	return a
}

// atomFilter[n%64] has bit (s[0]+s[n-1])%64 set for every atom string s of
// n bytes, n > 0. It is built from the atoms at init, without hashing.
var atomFilter = func() (t [64]uint64) {
	for i := range atoms {
		if s := atoms[i].s; s != "" {
			t[len(s)&63] |= 1 << ((s[0] + s[len(s)-1]) & 63)
		}
	}
	return t
}()

// MayBeAtom reports whether s may be an atom's string: false only when
// Lookup(s) would return nil. Most strings that are not atoms, such as
// custom x-... names, fail it, and it costs less than Lookup's hash.
func MayBeAtom(s string) bool { return MayBeAtomOf(s) }

// MayBeAtomBytes is MayBeAtom for a byte slice: false only when
// LookupBytes(b) would return nil.
func MayBeAtomBytes(b []byte) bool { return MayBeAtomOf(b) }

// MayBeAtomOf is MayBeAtom for a string or a byte slice: false only when
// LookupOf(s) would return nil.
func MayBeAtomOf[T string | []byte](s T) bool {
	n := len(s)
	return n == 0 || atomFilter[n&63]>>((s[0]+s[n-1])&63)&1 != 0
}

// LookupName returns the first static-table index whose name is name, and
// name's well-known key ID. Either may be 0.
func LookupName(name string) (index uint8, key KeyID) {
	if a := LookupOf(name); a != nil {
		return a.nameIndex, a.key
	}
	return 0, KeyUnknown
}

// LookupNameBytes is LookupName for a byte slice.
func LookupNameBytes(name []byte) (index uint8, key KeyID) {
	if a := LookupOf(name); a != nil {
		return a.nameIndex, a.key
	}
	return 0, KeyUnknown
}

// LookupField returns the static-table index of the field (name, value) when
// the table holds exactly that field, and otherwise 0. nameIndex is the first
// index whose name is name, or 0.
func LookupField(name, value string) (index, nameIndex uint8) {
	return fieldOf(Lookup(name), value)
}

// LookupFieldBytes is LookupField for byte slices.
func LookupFieldBytes(name, value []byte) (index, nameIndex uint8) {
	return fieldOf(LookupBytes(name), value)
}

// fieldOf is LookupField for the name's atom a, which may be nil.
func fieldOf[T string | []byte](a *Atom, value T) (index, nameIndex uint8) {
	if a == nil || a.nameIndex == 0 {
		return 0, 0
	}
	first := a.nameIndex
	// Entries that share a name are adjacent; runs are at most 7 long.
	for i := first; i < first+staticNameRun[first]; i++ {
		// The conversion in a comparison does not allocate.
		if staticTable[i].Value.s == string(value) {
			return i, first
		}
	}
	return 0, first
}

// LookupFieldAtoms is LookupField for two atoms: it compares pointers, never
// bytes.
func LookupFieldAtoms(name, value *Atom) (index, nameIndex uint8) {
	if name == nil {
		return 0, 0
	}
	first := name.nameIndex
	if first == 0 {
		return 0, 0
	}
	for i := first; i < first+staticNameRun[first]; i++ {
		if staticTable[i].Value == value {
			return i, first
		}
	}
	return 0, first
}
