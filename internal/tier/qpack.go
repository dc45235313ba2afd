package tier

// QPACKNone is the index QPACKNameIndex and QPACKLookupFieldAtoms return
// when the QPACK static table has no match: QPACK's indexes start at 0.
const QPACKNone = 0xff

// QPACKNameIndex returns the first RFC 9204 static-table index whose name
// is the atom's string, or QPACKNone.
func QPACKNameIndex(a *Atom) uint8 { return a.qName - 1 }

// QPACKLookupFieldAtoms returns the RFC 9204 static-table index of the
// field (name, value), or QPACKNone; nameIndex is QPACKNameIndex(name),
// or QPACKNone for a nil name. It compares atoms, never bytes.
func QPACKLookupFieldAtoms(name, value *Atom) (index, nameIndex uint8) {
	if name == nil {
		return QPACKNone, QPACKNone
	}
	nameIndex = name.qName - 1
	if value == nil || nameIndex == QPACKNone {
		return QPACKNone, nameIndex
	}
	// An empty slot holds 0, which wraps to QPACKNone, whose key no pair has.
	key := uint32(name.id)<<16 | uint32(value.id)
	if i := qpackSlots[qpackSlot(key)] - 1; qpackKeys[i&uint8(len(qpackKeys)-1)] == key {
		return i, nameIndex
	}
	return QPACKNone, nameIndex
}

// QPACKEntryAt returns a copy of RFC 9204 static-table entry i, 0 to
// QPACKTableLen-1, and false for any other index.
func QPACKEntryAt(i int) (Entry, bool) {
	if uint(i) >= QPACKTableLen {
		return Entry{}, false
	}
	return qpackTable[i], true
}
