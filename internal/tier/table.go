package tier

// TableLen is the number of entries of the RFC 7541 static table.
const TableLen = 61

// Entry is one static-table entry.
type Entry struct {
	Name, Value *Atom
	// PairHash is tabledef.PairHash(Name.Hash(), Value.Hash()).
	PairHash uint64
	// Size is the entry's size in RFC 7541 terms: name + value + 32 bytes.
	Size uint32
}

// EntryAt returns a copy of RFC 7541 static-table entry i, 1 to TableLen,
// and false for any other index.
func EntryAt(i int) (Entry, bool) {
	if i < 1 || i > TableLen {
		return Entry{}, false
	}
	return staticTable[i], true
}
