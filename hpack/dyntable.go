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

// add inserts an entry of RFC 7541 size size. name and value are atoms or
// bytes, and bytes are copied into the ring (addKept keeps owned values as
// they are). An entry larger than the maximum empties the table and is not
// added (RFC 7541 §4.4).
//
// The name's bytes may be the ring's own, taken from an entry that the
// eviction below drops, so that the new chunk may overlap them. They are
// still intact when copied: eviction writes no bytes, the name is copied
// first, and copy handles the overlap. The value never comes from the
// ring (a literal value is in the block or a Huffman buffer), so writing
// it after the name is safe too.
func (t *dynTable) add(name, value mdelem.Str, size uint32) {
	// makeRoom, written out: the call costs more than its body here.
	if size > t.max {
		t.evictTo(0)
		return
	}
	if t.size > t.max-size {
		t.evictTo(t.max - size)
	}
	// The live entries own at most t.size ring bytes and the new one at
	// most size: grow the rings first if they cannot hold that much.
	// (t.size+size does not wrap: it is at most t.max.) Each entry takes
	// 32 bytes of size or more, and the entry ring holds ringCap/32+1 or
	// more, so it has room too.
	if t.size+size > t.ringCap {
		t.grow(t.size + size)
	}
	e := t.push(size)
	na, va := name.Atom(), value.Atom()
	switch {
	case na != nil && va == nil:
		// The usual case: an atom name and a value of bytes.
		vb := value.UnsafeBytes()
		e.chunkLen = uint32(len(vb))
		e.chunk = t.place(len(vb))
		e.name, e.value = name, t.copyAt(e.chunk, vb)
		return
	case na == nil && va == nil:
		// A custom name and a value of bytes, one chunk.
		nb, vb := name.UnsafeBytes(), value.UnsafeBytes()
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

// addKept is add for an entry whose value is an atom or owned bytes that
// the entry keeps as they are (see DecodeFragmentKeep). With an atom name,
// as a drop-in's names mostly are, the entry takes no ring bytes, so only
// the entry ring may need to grow, by doubling with the entries the table
// holds: such a table never allocates a byte ring. A name of bytes goes to
// the byte ring, through add's test for growth.
func (t *dynTable) addKept(name, value mdelem.Str, size uint32) {
	if !t.makeRoom(size) {
		return
	}
	if name.Atom() == nil && t.size+size > t.ringCap {
		t.grow(t.size + size)
	}
	if t.count == len(t.ents) {
		t.growEntries()
	}
	e := t.push(size)
	e.chunkLen = bytesLen(name)
	off := t.place(int(e.chunkLen))
	e.chunk = off
	e.name, e.value = t.put(name, &off), value
}

// growEntries doubles the entry ring, from initialKeptEntries, leaving the
// byte ring as it is. Out of line, like grow.
//
//go:noinline
func (t *dynTable) growEntries() {
	ents := make([]dynEntry, max(2*len(t.ents), initialKeptEntries))
	n := copy(ents, t.ents[t.first:min(t.first+t.count, len(t.ents))])
	copy(ents[n:t.count], t.ents) // the entries that wrapped around
	t.ents, t.first = ents, 0
}

// initialKeptEntries is the entry ring's first length in a table whose
// entries take no ring bytes: HTTP/2's initial 4096-byte table holds about
// that many entries of typical size.
const initialKeptEntries = 32

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

// makeRoom evicts what an entry of RFC 7541 size size needs, and reports
// whether it is to be added: an entry larger than the maximum empties the
// table instead (RFC 7541 §4.4). add does the same in line.
func (t *dynTable) makeRoom(size uint32) bool {
	if size > t.max {
		t.evictTo(0)
		return false
	}
	if t.size > t.max-size {
		t.evictTo(t.max - size)
	}
	return true
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

// bytesLen returns how many ring bytes s needs: none for an atom.
func bytesLen(s mdelem.Str) uint32 {
	if s.Atom() != nil {
		return 0
	}
	return uint32(s.Len())
}

// put returns the Str an entry keeps for s: s itself for an atom or owned
// bytes (a value kept as it is), else a copy of its bytes placed at *off in
// the ring, which it advances, marked borrowed so that a batch copies it in
// turn.
func (t *dynTable) put(s mdelem.Str, off *int) mdelem.Str {
	if !s.IsBorrowed() {
		return s // no ring bytes: an atom, or a value the entry keeps
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
