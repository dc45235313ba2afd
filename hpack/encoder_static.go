package hpack

import (
	sd "github.com/metapack/metapack/staticdata"
)

// staticRuns[i], for the first static index i of a name, is the number of
// entries with that name; they are adjacent.
var staticRuns = func() (runs [sd.StaticTableLen + 1]uint8) {
	for i := 1; i <= sd.StaticTableLen; {
		j := i
		for j <= sd.StaticTableLen && staticTable[j].Name == staticTable[i].Name {
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
		return sd.LookupFieldAtoms(v.nameAtom, v.valueAtom)
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
