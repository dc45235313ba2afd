package tier

import "github.com/metapack/metapack/internal/tabledef"

// Lookup returns the static-tier atom whose string is s, or nil. It neither
// allocates nor keeps s.
func Lookup[T ~string | ~[]byte](s T) *Atom {
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

// phash is the generator's perfect hash of the non-empty atoms, with the
// parameters it found. s must not be empty. The result is below
// 1<<phashBits.
func phash[T ~string | ~[]byte](s T) uint32 {
	return tabledef.PerfectHash(s, phashBits, phashM0, phashM1, phashM2, phashM3, phashM4)
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
func MayBeAtom[T ~string | ~[]byte](s T) bool {
	n := len(s)
	return n == 0 || atomFilter[n&63]>>((s[0]+s[n-1])&63)&1 != 0
}

// LookupField returns the static-table index of the field (name, value) when
// the table holds exactly that field, and otherwise 0. nameIndex is the first
// index whose name is name, or 0.
func LookupField[T ~string | ~[]byte](name, value T) (index, nameIndex uint8) {
	return LookupFieldAtoms(Lookup(name), Lookup(value))
}

// valuedNames has bit i set when name index i has a non-empty static value.
var valuedNames = func() (m uint64) {
	for _, e := range staticTable[1:] {
		if e.Value.s != "" {
			m |= 1 << e.Name.nameIndex
		}
	}
	return m
}()

// HasValues reports whether the static table holds a non-empty value for
// the name whose first index is nameIndex; if not, only (name, "") is there.
func HasValues(nameIndex uint8) bool { return valuedNames>>(nameIndex&63)&1 != 0 }

// LookupFieldAtoms is LookupField for two atoms, either of which may be nil:
// it compares atoms, never bytes.
func LookupFieldAtoms(name, value *Atom) (index, nameIndex uint8) {
	if name == nil {
		return 0, 0
	}
	if name.nameIndex == 0 || value == nil {
		return 0, name.nameIndex
	}
	// An empty slot holds 0, whose key no pair has.
	key := uint32(name.id)<<16 | uint32(value.id)
	if i := hpackSlots[hpackSlot(key)]; hpackKeys[i&uint8(len(hpackKeys)-1)] == key {
		return i, name.nameIndex
	}
	return 0, name.nameIndex
}
