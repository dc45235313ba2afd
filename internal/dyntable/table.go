// Package dyntable holds a decoder's dynamic table, HPACK's (RFC 7541 §2.3.2)
// and QPACK's (RFC 9204 §3.2): a ring of entries, newest last, whose strings
// are kept in a byte ring that grows with what the table holds.
package dyntable

import (
	"math"

	"github.com/metapack/metapack/internal/tabledef"
	"github.com/metapack/metapack/mdelem"
)

const entryOverhead = tabledef.FieldOverhead

// Entry is one dynamic table entry, its strings kept as the Strs a
// field takes: atoms, owned bytes, or ring bytes, borrowed.
type Entry struct {
	Name, Value mdelem.Str
	// chunk and chunkLen locate the entry's ring bytes.
	chunk    int
	chunkLen uint32
	Size     uint32 // RFC 7541 size
}

// Table is the HPACK dynamic table: a ring of entries, newest last, and
// a ByteRing that holds their strings. Both grow with what the table
// holds, not with its maximum.
type Table struct {
	ents    []Entry // ring of entries
	first   int     // index in ents of the oldest entry
	count   int
	size    uint32 // current size in RFC 7541 terms
	max     uint32 // current maximum size (the last size update)
	ringCap uint32 // the byte ring's capacity, saturated to a uint32
	ByteRing
}

// rebuild moves the entries into a ring of nents entries and a byte ring
// of the given capacity, oldest first, packing their bytes from offset 0.
// Both must hold what the table holds.
func (t *Table) rebuild(nents, capacity int) {
	old := *t
	*t = Table{
		ents:     make([]Entry, nents),
		ByteRing: ByteRing{Bytes: make([]byte, 2*capacity)},
		max:      old.max,
		ringCap:  uint32(min(uint64(capacity), math.MaxUint32)),
	}
	for i := range old.count {
		j := old.first + i
		if j >= len(old.ents) {
			j -= len(old.ents)
		}
		e := old.ents[j]
		off := t.Place(int(e.chunkLen))
		e.chunk = off
		e.Name = t.put(e.Name, &off) // ring bytes move to the new ring
		e.Value = t.put(e.Value, &off)
		t.ents[t.count] = e
		t.count++
		t.size += e.Size
	}
}

// Len returns the number of entries.
func (t *Table) Len() int { return t.count }

// At returns the entry with dynamic index i: 0 is the newest.
func (t *Table) At(i int) *Entry {
	j := t.first + t.count - 1 - i
	if j >= len(t.ents) {
		j -= len(t.ents)
	}
	return &t.ents[j]
}

// SetMax applies a dynamic table size update, evicting as needed.
func (t *Table) SetMax(m uint32) {
	t.max = m
	t.EvictTo(m)
}

// EvictTo evicts the oldest entries until the size is at most target.
func (t *Table) EvictTo(target uint32) {
	for t.size > target && t.count > 0 {
		e := &t.ents[t.first]
		t.size -= e.Size
		t.first++
		if t.first == len(t.ents) {
			t.first = 0
		}
		t.count--
	}
	if t.count == 0 {
		t.Head = 0 // an empty table starts its bytes afresh
	}
}

// Add inserts an entry of RFC 7541 size size; one larger than the maximum
// empties the table (RFC 7541 §4.4). Atoms and owned bytes (kept) are kept
// as they are; other bytes are copied into the ring. The name may be ring
// bytes of an entry evicted here: eviction writes nothing, the name is
// copied first, and copy handles overlap. The value never is ring bytes.
func (t *Table) Add(name, value mdelem.Str, size uint32, kept bool) {
	if size > t.max {
		t.EvictTo(0)
		return
	}
	if t.size > t.max-size {
		t.EvictTo(t.max - size)
	}
	// The entries' ring bytes are at most t.size+size <= t.max; the entry
	// ring holds ringCap/32+1, so it has room too.
	if t.size+size > t.ringCap {
		t.grow(t.size + size)
	}
	e := t.push(size)
	if !kept && value.Atom() == nil {
		vb := value.UnsafeBytes()
		if name.Atom() != nil {
			e.chunkLen = uint32(len(vb))
			e.chunk = t.Place(len(vb))
			e.Name, e.Value = name, t.copyAt(e.chunk, vb)
			return
		}
		nb := name.UnsafeBytes()
		e.chunkLen = uint32(len(nb) + len(vb))
		off := t.Place(len(nb) + len(vb))
		e.chunk = off
		e.Name, e.Value = t.copyAt(off, nb), t.copyAt(off+len(nb), vb)
		return
	}
	e.chunkLen = bytesLen(name) + bytesLen(value)
	off := t.Place(int(e.chunkLen))
	e.chunk = off
	e.Name = t.put(name, &off)
	e.Value = t.put(value, &off)
}

// push claims the slot after the newest entry, for an entry of size size,
// and returns it for the caller to fill in.
func (t *Table) push(size uint32) *Entry {
	j := t.first + t.count
	if j >= len(t.ents) {
		j -= len(t.ents)
	}
	e := &t.ents[j]
	t.count++
	t.size += size
	e.Size = size
	return e
}

// grow grows the byte ring to hold need bytes, and the entry ring to
// ringCap/32+1 entries, the most that ringCap bytes of entries can be.
//
//go:noinline
func (t *Table) grow(need uint32) {
	capacity := NextRingCapacity(t.RingCapacity(), SizeInt(need), t.max)
	t.rebuild(max(capacity/entryOverhead+1, len(t.ents)), capacity)
}

// bytesLen returns how many ring bytes s needs.
func bytesLen(s mdelem.Str) uint32 {
	if !s.IsBorrowed() { // an atom, or a value the entry keeps
		return 0
	}
	return uint32(s.Len())
}

// put returns the Str an entry keeps for s: s itself for an atom or owned
// bytes, else a copy of its bytes at *off in the ring, which it advances.
func (t *Table) put(s mdelem.Str, off *int) mdelem.Str {
	if !s.IsBorrowed() {
		return s // no ring bytes: an atom, or a value the entry keeps
	}
	b := s.UnsafeBytes()
	o := *off
	*off = o + len(b)
	return t.copyAt(o, b)
}

// copyAt copies b into the ring at off and returns the copy, borrowed.
func (t *Table) copyAt(off int, b []byte) mdelem.Str {
	end := off + len(b)
	dst := t.Bytes[off:end:end]
	copy(dst, b)
	return mdelem.StrOf(mdelem.Borrowed(dst))
}

// ByteRing holds the strings of a dynamic table in an array twice its
// capacity. Each entry's bytes are one chunk, placed after the newest one
// or, when they do not fit before the end, at offset 0. The table evicts,
// and grows the ring before the live bytes plus the new chunk would exceed
// the capacity, so a new chunk never overlaps a live one.
type ByteRing struct {
	Bytes []byte // the ring, 2*capacity bytes
	Head  int    // where the next chunk goes if it fits
}

// RingCapacity is the most live bytes, new chunk included, the ring holds
// without growing.
func (r *ByteRing) RingCapacity() int { return len(r.Bytes) / 2 }

// Place reserves n contiguous bytes for a new chunk and returns their
// offset.
func (r *ByteRing) Place(n int) int {
	if r.Head+n > len(r.Bytes) {
		r.Head = 0
	}
	off := r.Head
	r.Head += n
	return off
}

// NextRingCapacity returns the capacity to grow a ring of capacity c to
// when it must hold need bytes: double, from InitialRingCapacity, but at
// most tableMax, at least need, and below math.MaxInt/2.
func NextRingCapacity(c, need int, tableMax uint32) int {
	return min(max(min(max(2*c, InitialRingCapacity), SizeInt(tableMax)), need), math.MaxInt/2)
}

// InitialRingCapacity is HTTP/2's initial table size, which most
// connections keep: their rings grow once.
const InitialRingCapacity = 4096

// SizeInt converts a table size to an int, saturating where int is 32 bits.
func SizeInt(v uint32) int {
	if uint64(v) > math.MaxInt {
		return math.MaxInt
	}
	return int(v)
}

// Size returns the table's size in RFC 7541 terms.
func (t *Table) Size() uint32 { return t.size }

// Max returns the table's maximum size.
func (t *Table) Max() uint32 { return t.max }
