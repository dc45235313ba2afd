package hpack

import (
	"github.com/metapack/metapack/internal/tier"
)

// staticRuns[i], for the first static index i of a name, is the number of
// entries with that name; they are adjacent.
var staticRuns = func() (runs [tier.TableLen + 1]uint8) {
	for i := 1; i <= tier.TableLen; {
		j := i
		for j <= tier.TableLen && staticTable[j].Name == staticTable[i].Name {
			j++
		}
		runs[i] = uint8(j - i)
		i = j
	}
	return runs
}()

// staticMatch returns the static index of the field or 0, and the first
// static index with its name, or 0. The name is an atom.
func staticMatch(v *fieldView) (index, nameIndex uint8) {
	if v.valueAtom != nil {
		return tier.LookupFieldAtoms(v.nameAtom, v.valueAtom)
	}
	first := v.nameAtom.NameIndex()
	// One bounds check for the whole run: first+run <= len(staticTable).
	for i, e := range staticTable[first : first+staticRuns[first]] {
		if len(e.Value.String()) == len(v.value) && e.Value.String() == v.value {
			return first + uint8(i), first
		}
	}
	return 0, first
}
