package hpack

import (
	"github.com/metapack/metapack/staticdata"
)

// entryOverhead is the 32 bytes RFC 7541 §4.1 adds to each entry's size.
const entryOverhead = 32

// dynStr is a name or value held by the dynamic table: an atom, or n bytes
// at off in the table's byte ring.
type dynStr struct {
	atom *staticdata.Atom
	off  uint32
	n    uint32
}

// dynEntry is one dynamic table entry.
type dynEntry struct {
	name, value dynStr
	// chunk and chunkLen locate the bytes the entry owns in the ring (its
	// non-atom name and value, in that order).
	chunk, chunkLen uint32
}

// size returns the entry's RFC 7541 size.
func (e *dynEntry) size() uint32 {
	return e.name.len() + e.value.len() + entryOverhead
}

func (s *dynStr) len() uint32 {
	if s.atom != nil {
		return uint32(len(s.atom.S))
	}
	return s.n
}

// dynTable is the HPACK dynamic table: a ring of entries, newest last, and a
// ring of bytes that holds their strings. Neither allocates per entry.
//
// The byte ring has twice the table's maximum size. Every entry's bytes are
// one contiguous chunk, placed after the newest chunk or, when they do not
// fit before the end, at offset 0. Entries are evicted before a chunk is
// placed, so the live bytes plus the new chunk never exceed the maximum;
// with a ring twice that size the new chunk then never overlaps a live one.
type dynTable struct {
	ents  []dynEntry // ring; capacity bounds the entry count at maxSize/32
	first int        // index in ents of the oldest entry
	count int
	size  uint32 // current size in RFC 7541 terms
	max   uint32 // current maximum size (the last size update)
	bytes []byte // the byte ring, len 2*max
	head  uint32 // where the next chunk goes if it fits
	// nameCopy keeps a ring name safe while its entry is evicted.
	nameCopy []byte
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
		bytes:    make([]byte, max(2*limit, uint32(len(old.bytes)))),
		max:      old.max,
		nameCopy: old.nameCopy,
	}
	// Re-add the old entries, oldest first, packing their bytes.
	for i := range old.count {
		e := old.ents[(old.first+i)%len(old.ents)]
		chunk := old.bytes[e.chunk : e.chunk+e.chunkLen]
		off := t.place(e.chunkLen)
		copy(t.bytes[off:], chunk)
		if e.name.atom == nil {
			e.name.off = e.name.off - e.chunk + off
		}
		if e.value.atom == nil {
			e.value.off = e.value.off - e.chunk + off
		}
		e.chunk = off
		t.ents[(t.first+t.count)%len(t.ents)] = e
		t.count++
		t.size += e.size()
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

// str returns the bytes of a non-atom string held by the table.
func (t *dynTable) str(s dynStr) []byte {
	return t.bytes[s.off : s.off+s.n : s.off+s.n]
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
		t.size -= e.size()
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

// place reserves n contiguous bytes for a new chunk and returns their
// offset. The caller has already evicted to make room.
func (t *dynTable) place(n uint32) uint32 {
	if t.head+n > uint32(len(t.bytes)) {
		t.head = 0
	}
	off := t.head
	t.head += n
	return off
}

// add inserts an entry. name and value are atoms or bytes; bytes are
// copied into the ring. nameBytes may point into the ring itself (a name
// taken from an entry about to be evicted): it is copied before anything is
// overwritten. An entry larger than the maximum empties the table and is
// not added (RFC 7541 §4.4).
func (t *dynTable) add(nameAtom *staticdata.Atom, nameBytes []byte, valueAtom *staticdata.Atom, valueBytes []byte) {
	var nlen, vlen uint32
	if nameAtom != nil {
		nlen = uint32(len(nameAtom.S))
	} else {
		nlen = uint32(len(nameBytes))
	}
	if valueAtom != nil {
		vlen = uint32(len(valueAtom.S))
	} else {
		vlen = uint32(len(valueBytes))
	}
	size := nlen + vlen + entryOverhead
	if size > t.max {
		t.evictTo(0)
		return
	}
	if nameAtom == nil && t.count > 0 {
		// The name may be a ring string that eviction or placement is
		// about to overwrite: keep a copy.
		t.nameCopy = append(t.nameCopy[:0], nameBytes...)
		nameBytes = t.nameCopy
	}
	t.evictTo(t.max - size)
	var chunkLen uint32
	if nameAtom == nil {
		chunkLen += nlen
	}
	if valueAtom == nil {
		chunkLen += vlen
	}
	off := t.place(chunkLen)
	e := dynEntry{chunk: off, chunkLen: chunkLen}
	pos := off
	if nameAtom != nil {
		e.name.atom = nameAtom
	} else {
		copy(t.bytes[pos:], nameBytes)
		e.name = dynStr{off: pos, n: nlen}
		pos += nlen
	}
	if valueAtom != nil {
		e.value.atom = valueAtom
	} else {
		copy(t.bytes[pos:], valueBytes)
		e.value = dynStr{off: pos, n: vlen}
	}
	j := t.first + t.count
	if j >= len(t.ents) {
		j -= len(t.ents)
	}
	t.ents[j] = e
	t.count++
	t.size += size
}

// string returns a table string as a Go string (allocating for ring bytes);
// for inspection and tests.
func (t *dynTable) string(s dynStr) string {
	if s.atom != nil {
		return s.atom.S
	}
	return string(t.str(s))
}
