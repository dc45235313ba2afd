// Package enctable is an encoder's copy of its peer's dynamic table, HPACK's
// (RFC 7541 §2.3.2) and QPACK's (RFC 9204 §3.2), with a hash index for
// finding fields and names in it. The k-th entry added has sequence
// number k, which is QPACK's absolute index (modulo 2^32).
package enctable

import (
	"github.com/metapack/metapack/internal/dyntable"
	"github.com/metapack/metapack/internal/tabledef"
	"math/bits"

	"github.com/metapack/metapack/internal/tier"
)

// Str is a string of the encoder's table: an atom, or n bytes at off in
// the byte ring.
type Str struct {
	atom *tier.Atom
	off  uint32
	n    uint32
}

// Entry is one entry of the encoder's dynamic table.
type Entry struct {
	name, value        Str
	nameHash, pairHash uint64
	// nextName and nextPair link the hash chains; they may be stale.
	nextName, nextPair uint32
}

// Table is the encoder's copy of the dynamic table (RFC 7541 §2.3.2),
// with a hash index for finding fields and names in it.
//
// The k-th entry added has sequence number k and sits in ents[k&mask]; its
// age (0 for the newest) is next-1-seq, and it is live while its age is
// below count. Hash chains by name and by pair run from newest to oldest;
// eviction leaves them, and a walk stops at the first entry that is not
// live or not older than the one before.
type Table struct {
	ents      []Entry
	mask      uint32 // len(ents)-1; len(ents) is a power of two
	nameHeads []uint32
	pairHeads []uint32
	hmask     uint64 // len(heads)-1
	next      uint32 // sequence number of the next entry added
	count     uint32
	size      uint32 // RFC 7541 size of the live entries
	max       uint32 // maximum size
	ringCap   uint32 // the byte ring's capacity (at most 1 GiB: the encoders' limit)
	dyntable.ByteRing
}

// nextPow2 returns the smallest power of two >= n (n >= 1).
func nextPow2(n uint32) uint32 {
	return 1 << bits.Len32(n-1)
}

// rebuild re-adds the entries, oldest first, into an entry ring of nents
// (a power of two) and a byte ring of the given capacity.
func (t *Table) rebuild(nents uint32, capacity int) {
	old := *t
	*t = Table{
		ents:      make([]Entry, nents),
		mask:      nents - 1,
		nameHeads: make([]uint32, 2*nents),
		pairHeads: make([]uint32, 2*nents),
		hmask:     uint64(2*nents - 1),
		max:       old.max,
		ringCap:   uint32(capacity),
		ByteRing:  dyntable.ByteRing{Bytes: make([]byte, 2*capacity)},
	}
	ring := string(old.Bytes)
	str := func(s Str) string {
		if s.atom != nil {
			return tier.Str(s.atom)
		}
		return ring[s.off : s.off+s.n]
	}
	for i := old.count; i > 0; i-- {
		e := old.At(i - 1)
		v := Field{NameAtom: e.name.atom, ValueAtom: e.value.atom, Name: str(e.name), Value: str(e.value)}
		t.Add(&v, e.nameHash, e.pairHash)
	}
}

// grow grows the byte ring to hold need bytes, and the entry ring to the
// power of two at or above ringCap/32: Add keeps the entries' size within
// ringCap, and every entry's size is 32 or more, so that many slots hold
// every live entry.
//
//go:noinline
func (t *Table) grow(need uint32) {
	capacity := dyntable.NextRingCapacity(t.RingCapacity(), dyntable.SizeInt(need), t.max)
	t.rebuild(nextPow2(max(uint32(capacity/tabledef.FieldOverhead), 1)), capacity)
}

// Reset empties the table; the age test rejects the stale chain heads.
func (t *Table) Reset() {
	t.count, t.size, t.Head = 0, 0, 0
}

// SetMax sets the maximum size (at most capacity), evicting as needed.
func (t *Table) SetMax(m uint32) {
	t.max = m
	t.EvictTo(m)
}

// At returns the entry of age i (0 is the newest); i < count.
func (t *Table) At(i uint32) *Entry {
	return &t.ents[(t.next-1-i)&t.mask]
}

// RingBytes returns the ring bytes of a table string that is not an atom.
func (t *Table) RingBytes(s Str) []byte {
	return t.Bytes[s.off : s.off+s.n]
}

// Field is a field's strings: atoms where it has them, and the bytes.
type Field struct {
	NameAtom, ValueAtom *tier.Atom
	Name, Value         string
}

// equal reports whether table string s holds x, whose atom is a or nil.
func (t *Table) equal(s Str, a *tier.Atom, x string) bool {
	if a != nil && a == s.atom {
		return true
	}
	if int(s.n) != len(x) {
		return false
	}
	if s.atom != nil {
		return tier.Str(s.atom) == x
	}
	return string(t.RingBytes(s)) == x
}

// matches reports whether entry e holds the field.
func (t *Table) matches(e *Entry, v *Field) bool {
	return t.equal(e.value, v.ValueAtom, v.Value) && t.equal(e.name, v.NameAtom, v.Name)
}

// live returns the age of sequence number seq, and whether it is live
// and older than prevAge (-1 for the first of a walk).
func (t *Table) live(seq uint32, prevAge int64) (uint32, bool) {
	age := t.next - 1 - seq
	return age, age < t.count && int64(age) > prevAge
}

// maxPairProbes is the most entries findField compares in full, which
// bounds the cost of colliding pair hashes.
const maxPairProbes = 8

// FindField returns the age of the newest entry equal to the field, whose
// pair hash is ph, among the first maxPairProbes with that hash.
func (t *Table) FindField(ph uint64, v *Field) (uint32, bool) {
	seq := t.pairHeads[ph&t.hmask]
	prev := int64(-1)
	for probes := maxPairProbes; ; {
		age, ok := t.live(seq, prev)
		if !ok {
			return 0, false
		}
		e := &t.ents[seq&t.mask]
		if e.pairHash == ph {
			if t.matches(e, v) {
				return age, true
			}
			if probes--; probes == 0 {
				return 0, false
			}
		}
		prev, seq = int64(age), e.nextPair
	}
}

// FindName returns the age of the newest entry with the field's name.
func (t *Table) FindName(nh uint64, v *Field) (uint32, bool) {
	seq := t.nameHeads[nh&t.hmask]
	prev := int64(-1)
	for {
		age, ok := t.live(seq, prev)
		if !ok {
			return 0, false
		}
		e := &t.ents[seq&t.mask]
		if e.nameHash == nh && t.equal(e.name, v.NameAtom, v.Name) {
			return age, true
		}
		prev, seq = int64(age), e.nextName
	}
}

// EvictTo evicts the oldest entries until the size is at most target.
func (t *Table) EvictTo(target uint32) {
	for t.size > target && t.count > 0 {
		e := &t.ents[(t.next-t.count)&t.mask]
		t.size -= e.name.n + e.value.n + tabledef.FieldOverhead
		t.count--
	}
	if t.count == 0 {
		t.Head = 0
	}
}

// putStr stores x for a new entry: an atom, or bytes copied at *pos.
func (t *Table) putStr(a *tier.Atom, x string, pos *int) Str {
	if a != nil {
		return Str{atom: a, n: uint32(len(x))}
	}
	s := Str{off: uint32(*pos), n: uint32(len(x))}
	copy(t.Bytes[*pos:], x)
	*pos += len(x)
	return s
}

// Add inserts the field as the newest entry; one larger than the maximum
// empties the table (RFC 7541 §4.4). The strings may not be ring bytes.
func (t *Table) Add(v *Field, nh, ph uint64) {
	size := uint32(len(v.Name)) + uint32(len(v.Value)) + tabledef.FieldOverhead
	if size > t.max {
		t.EvictTo(0)
		return
	}
	t.EvictTo(t.max - size)
	var chunk int
	if v.NameAtom == nil {
		chunk += len(v.Name)
	}
	if v.ValueAtom == nil {
		chunk += len(v.Value)
	}
	// As in dyntable.Table.add, t.size+size bounds the ring bytes and entries.
	if t.size+size > t.ringCap {
		t.grow(t.size + size)
	}
	pos := t.Place(chunk)
	seq := t.next
	e := &t.ents[seq&t.mask]
	e.name = t.putStr(v.NameAtom, v.Name, &pos)
	e.value = t.putStr(v.ValueAtom, v.Value, &pos)
	e.nameHash, e.pairHash = nh, ph
	nb, pb := nh&t.hmask, ph&t.hmask
	e.nextName, e.nextPair = t.nameHeads[nb], t.pairHeads[pb]
	t.nameHeads[nb], t.pairHeads[pb] = seq, seq
	t.next++
	t.count++
	t.size += size
}

// Count returns the number of entries.
func (t *Table) Count() uint32 { return t.count }

// Size returns the size of the entries in RFC 7541 terms.
func (t *Table) Size() uint32 { return t.size }

// Max returns the maximum size.
func (t *Table) Max() uint32 { return t.max }

// Next returns the sequence number the next entry added gets.
func (t *Table) Next() uint32 { return t.next }

// String returns a copy of a table string.
func (t *Table) String(s Str) string {
	if s.atom != nil {
		return s.atom.String()
	}
	return string(t.RingBytes(s))
}

// Strings returns entry e's name and value, as copies.
func (t *Table) Strings(e *Entry) (name, value string) { return t.String(e.name), t.String(e.value) }

// NameHash returns the name hash the entry of age i was added with;
// i < Count.
func (t *Table) NameHash(i uint32) uint64 { return t.At(i).nameHash }

// EntrySize returns the RFC 7541 size of the entry of age i; i < Count.
func (t *Table) EntrySize(i uint32) uint32 {
	e := t.At(i)
	return e.name.n + e.value.n + tabledef.FieldOverhead
}
