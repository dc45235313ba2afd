package hpack

import (
	"github.com/metapack/metapack/mdelem"
)

// entryOverhead is the 32 bytes RFC 7541 §4.1 adds to each entry's size.
const entryOverhead = 32

// dynEntry is one dynamic table entry. Its name and value are kept as the
// Strs a field takes, so that an indexed field copies them as they are: an
// atom (its kind already worked out), or ring bytes, borrowed so that a
// batch copies them before a later add overwrites them.
type dynEntry struct {
	name, value mdelem.Str
	// chunk and chunkLen locate the bytes the entry owns in the ring: its
	// non-atom name and value, in that order.
	chunk, chunkLen uint32
	// size is the entry's RFC 7541 size, kept so that eviction and indexed
	// fields need not load the atoms to measure it.
	size uint32
}

// dynTable is the HPACK dynamic table: a ring of entries, newest last, and a
// byteRing that holds their strings. Neither allocates per entry.
type dynTable struct {
	ents  []dynEntry // ring; capacity bounds the entry count at maxSize/32
	first int        // index in ents of the oldest entry
	count int
	size  uint32 // current size in RFC 7541 terms
	max   uint32 // current maximum size (the last size update)
	byteRing
}

// setCapacity prepares the table for maximum sizes up to limit: the
// largest SETTINGS_HEADER_TABLE_SIZE we advertise. It keeps the entries.
func (t *dynTable) setCapacity(limit uint32) {
	wantEnts := int(limit/entryOverhead) + 1
	if cap(t.ents) >= wantEnts && uint32(len(t.bytes)) >= 2*limit {
		return
	}
	old := *t
	*t = dynTable{
		ents:     make([]dynEntry, max(wantEnts, len(old.ents))),
		byteRing: byteRing{bytes: make([]byte, max(2*limit, uint32(len(old.bytes))))},
		max:      old.max,
	}
	// Re-add the old entries, oldest first, packing their bytes.
	for i := range old.count {
		e := old.ents[(old.first+i)%len(old.ents)]
		off := t.place(e.chunkLen)
		e.chunk = off
		e.name = t.put(e.name, &off) // ring bytes move to the new ring
		e.value = t.put(e.value, &off)
		t.ents[(t.first+t.count)%len(t.ents)] = e
		t.count++
		t.size += e.size
	}
}

// len returns the number of entries.
func (t *dynTable) len() int { return t.count }

// at returns the entry with dynamic index i: 0 is the newest.
func (t *dynTable) at(i int) *dynEntry {
	j := t.first + t.count - 1 - i
	if j >= len(t.ents) {
		j -= len(t.ents)
	}
	return &t.ents[j]
}

// setMax applies a dynamic table size update, evicting as needed.
func (t *dynTable) setMax(m uint32) {
	t.max = m
	t.evictTo(m)
}

// evictTo evicts the oldest entries until the size is at most target.
func (t *dynTable) evictTo(target uint32) {
	for t.size > target && t.count > 0 {
		e := &t.ents[t.first]
		t.size -= e.size
		t.first++
		if t.first == len(t.ents) {
			t.first = 0
		}
		t.count--
	}
	if t.count == 0 {
		t.head = 0 // an empty table starts its bytes afresh
	}
}

// add inserts an entry of RFC 7541 size size. name and value are atoms or
// bytes; bytes are copied into the ring. An entry larger than the maximum
// empties the table and is not added (RFC 7541 §4.4).
//
// The name's bytes may be the ring's own, taken from an entry that the
// eviction below drops, so that the new chunk may overlap them. They are
// still intact when copied: eviction writes no bytes, the name is copied
// first, and copy handles the overlap. The value never comes from the
// ring (a literal value is in the block or a Huffman buffer), so writing
// it after the name is safe too.
func (t *dynTable) add(name, value mdelem.Str, size uint32) {
	if size > t.max {
		t.evictTo(0)
		return
	}
	if t.size > t.max-size {
		t.evictTo(t.max - size)
	}
	j := t.first + t.count
	if j >= len(t.ents) {
		j -= len(t.ents)
	}
	// Fill the entry in place: building it in a local and storing it whole
	// costs a copy of eight words.
	e := &t.ents[j]
	t.count++
	t.size += size
	e.size = size
	if name.Atom() != nil && value.Atom() == nil {
		// The usual case: an atom name and a value of bytes.
		vb := value.Bytes()
		e.chunkLen = uint32(len(vb))
		e.chunk = t.place(e.chunkLen)
		e.name, e.value = name, t.copyAt(e.chunk, vb)
		return
	}
	e.chunkLen = bytesLen(name) + bytesLen(value)
	off := t.place(e.chunkLen)
	e.chunk = off
	e.name = t.put(name, &off)
	e.value = t.put(value, &off)
}

// bytesLen returns how many ring bytes s needs: none for an atom.
func bytesLen(s mdelem.Str) uint32 {
	if s.Atom() != nil {
		return 0
	}
	return uint32(s.Len())
}

// put returns the Str an entry keeps for s: s itself for an atom, else a
// copy of its bytes placed at *off in the ring, which it advances, marked
// borrowed so that a batch copies it in turn.
func (t *dynTable) put(s mdelem.Str, off *uint32) mdelem.Str {
	if s.IsAtom() {
		return s
	}
	b := s.Bytes()
	o := *off
	*off = o + uint32(len(b))
	return t.copyAt(o, b)
}

// copyAt copies b into the ring at off and returns the copy, marked
// borrowed so that a batch copies it in turn.
func (t *dynTable) copyAt(off uint32, b []byte) mdelem.Str {
	end := off + uint32(len(b))
	dst := t.bytes[off:end:end]
	copy(dst, b)
	return mdelem.BorrowedStr(dst)
}
