package hpack

import (
	"math"

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
	chunk    int
	chunkLen uint32
	// size is the entry's RFC 7541 size, kept so that eviction and indexed
	// fields need not load the atoms to measure it.
	size uint32
}

// dynTable is the HPACK dynamic table: a ring of entries, newest last, and a
// byteRing that holds their strings. Both start empty and grow, by
// doubling, with what the table holds, whatever its maximum: memory follows
// the entries the peer sent, not the size we advertised. Once grown, they
// allocate nothing per entry.
type dynTable struct {
	ents  []dynEntry // ring of entries
	first int        // index in ents of the oldest entry
	count int
	size  uint32 // current size in RFC 7541 terms
	max   uint32 // current maximum size (the last size update)
	// ringCap is the byte ring's capacity, saturated to a uint32: the
	// test for growth in add reads it rather than the ring's length.
	ringCap uint32
	byteRing
}

// rebuild moves the entries into a ring of nents entries and a byte ring
// of the given capacity, oldest first, packing their bytes from offset 0.
// Both must hold what the table holds.
func (t *dynTable) rebuild(nents, capacity int) {
	old := *t
	*t = dynTable{
		ents:     make([]dynEntry, nents),
		byteRing: byteRing{bytes: make([]byte, 2*capacity)},
		max:      old.max,
		ringCap:  uint32(min(uint64(capacity), math.MaxUint32)),
	}
	for i := range old.count {
		j := old.first + i
		if j >= len(old.ents) {
			j -= len(old.ents)
		}
		e := old.ents[j]
		off := t.place(int(e.chunkLen))
		e.chunk = off
		e.name = t.put(e.name, &off) // ring bytes move to the new ring
		e.value = t.put(e.value, &off)
		t.ents[t.count] = e
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

// add inserts an entry of RFC 7541 size size. An entry larger than the
// maximum empties the table and is not added (RFC 7541 §4.4). An atom, or
// a value of owned bytes (kept, see Decoder.DecodeFragmentFunc), is kept
// as it is; other bytes are copied into the byte ring.
//
// The name's bytes may be the ring's own, taken from an entry that the
// eviction below drops, so that the new chunk may overlap them. They are
// still intact when copied: eviction writes no bytes, the name is copied
// first, and copy handles the overlap. The value never comes from the
// ring (a literal value is in the block or a Huffman buffer).
func (t *dynTable) add(name, value mdelem.Str, size uint32, kept bool) {
	if size > t.max {
		t.evictTo(0)
		return
	}
	if t.size > t.max-size {
		t.evictTo(t.max - size)
	}
	// The live entries own at most t.size ring bytes and the new one at
	// most size (t.size+size <= t.max: no wrap). Each entry takes 32 bytes
	// of size or more, and the entry ring holds ringCap/32+1 or more, so
	// it has room too.
	if t.size+size > t.ringCap {
		t.grow(t.size + size)
	}
	e := t.push(size)
	if !kept && value.Atom() == nil {
		vb := value.UnsafeBytes()
		if name.Atom() != nil {
			// The usual case: an atom name and a value of bytes.
			e.chunkLen = uint32(len(vb))
			e.chunk = t.place(len(vb))
			e.name, e.value = name, t.copyAt(e.chunk, vb)
			return
		}
		// A name of bytes and a value of bytes, one chunk.
		nb := name.UnsafeBytes()
		e.chunkLen = uint32(len(nb) + len(vb))
		off := t.place(len(nb) + len(vb))
		e.chunk = off
		e.name, e.value = t.copyAt(off, nb), t.copyAt(off+len(nb), vb)
		return
	}
	e.chunkLen = bytesLen(name) + bytesLen(value)
	off := t.place(int(e.chunkLen))
	e.chunk = off
	e.name = t.put(name, &off)
	e.value = t.put(value, &off)
}

// push claims the slot after the newest entry, which the entry ring has,
// for an entry of RFC 7541 size size, and returns it for the caller to
// fill in: building the entry in a local and storing it whole costs a copy
// of six words.
func (t *dynTable) push(size uint32) *dynEntry {
	j := t.first + t.count
	if j >= len(t.ents) {
		j -= len(t.ents)
	}
	e := &t.ents[j]
	t.count++
	t.size += size
	e.size = size
	return e
}

// grow makes room for entries of need bytes in all: it grows the byte ring
// (see nextRingCapacity), and the entry ring with it, to ringCap/32+1
// entries, the most that ringCap bytes of entries can be. Out of line: it
// runs only while a table fills up for the first time.
//
//go:noinline
func (t *dynTable) grow(need uint32) {
	capacity := nextRingCapacity(t.ringCapacity(), sizeInt(need), t.max)
	t.rebuild(max(capacity/entryOverhead+1, len(t.ents)), capacity)
}

// bytesLen returns how many ring bytes s needs: none for an atom or owned
// bytes.
func bytesLen(s mdelem.Str) uint32 {
	if s.IsAtom() || s.Kind() == mdelem.KindOwned {
		return 0
	}
	return uint32(s.Len())
}

// put returns the Str an entry keeps for s: s itself for an atom or owned
// bytes (a value kept as it is), else a copy of its bytes placed at *off in
// the ring, which it advances, marked borrowed so that a batch copies it in
// turn.
func (t *dynTable) put(s mdelem.Str, off *int) mdelem.Str {
	if s.IsAtom() || s.Kind() == mdelem.KindOwned {
		return s // no ring bytes
	}
	b := s.UnsafeBytes()
	o := *off
	*off = o + len(b)
	return t.copyAt(o, b)
}

// copyAt copies b into the ring at off and returns the copy, marked
// borrowed so that a batch copies it in turn.
func (t *dynTable) copyAt(off int, b []byte) mdelem.Str {
	end := off + len(b)
	dst := t.bytes[off:end:end]
	copy(dst, b)
	return mdelem.StrOf(mdelem.Borrowed(dst))
}

// byteRing holds the strings of a dynamic table, the decoder's or the
// encoder's, in an array twice its capacity. Every entry's bytes are one
// contiguous chunk, placed after the newest chunk or, when they do not fit
// before the end, at offset 0. Entries are evicted before a chunk is
// placed, and the table grows the ring (repacking its chunks from offset
// 0) before its size, which bounds the live bytes, plus the new chunk
// would exceed the capacity;
// with an array twice that size the new chunk then never overlaps a live
// one. The ring starts empty and grows with what the table holds, never
// with what its maximum would allow.
type byteRing struct {
	bytes []byte // the ring, 2*capacity bytes
	head  int    // where the next chunk goes if it fits
}

// ringCapacity is the most live bytes, new chunk included, the ring holds
// without growing.
func (r *byteRing) ringCapacity() int { return len(r.bytes) / 2 }

// place reserves n contiguous bytes for a new chunk and returns their
// offset. The caller has already evicted, and grown the ring, to make
// room.
func (r *byteRing) place(n int) int {
	if r.head+n > len(r.bytes) {
		r.head = 0
	}
	off := r.head
	r.head += n
	return off
}

// nextRingCapacity returns the capacity to grow a ring of capacity c to
// when it must hold need bytes, for a table whose maximum size is
// tableMax: double, from initialRingCapacity, but no more than tableMax
// allows, and at least need. It stays below half the largest int, so that the ring's
// length is an int; on 32-bit systems a table holding more than that
// could not be allocated anyway.
func nextRingCapacity(c, need int, tableMax uint32) int {
	return min(max(min(max(2*c, initialRingCapacity), sizeInt(tableMax)), need), math.MaxInt/2)
}

// initialRingCapacity is the first capacity of a ring: HTTP/2's initial
// table size, which most connections keep, so that their tables grow once
// (a few allocations, as many as a table gets) rather than once per
// doubling. A larger table still grows only with what it holds.
const initialRingCapacity = 4096

// sizeInt converts a table size to an int, saturating where int is 32 bits.
func sizeInt(v uint32) int {
	if uint64(v) > math.MaxInt {
		return math.MaxInt
	}
	return int(v)
}
