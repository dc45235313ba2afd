package hpack

import (
	"github.com/metapack/metapack/internal/tier"
	sd "github.com/metapack/metapack/staticdata"
)

// staticMatch returns the static index of the field or 0, and the first
// static index with its name, or 0. The name is an atom. A value given as
// bytes that is a static-tier string gets its atom in v.valueAtom: every
// static value is one, and the table then takes the atom's hash rather
// than hashing the bytes, and keeps no copy of them.
func staticMatch(v *fieldView) (index, nameIndex uint8) {
	if v.valueAtom == nil {
		nameIndex = (*tier.Atom)(v.nameAtom).NameIndex()
		if nameIndex == 0 || !tier.MayBeAtom(v.value) {
			return 0, nameIndex
		}
		if v.valueAtom = sd.Lookup(v.value); v.valueAtom == nil {
			return 0, nameIndex
		}
	}
	return tier.LookupFieldAtoms((*tier.Atom)(v.nameAtom), (*tier.Atom)(v.valueAtom))
}
