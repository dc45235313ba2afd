package qpack

import (
	"math"
	"math/bits"
	"slices"

	"github.com/metapack/metapack/internal/enctable"
	"github.com/metapack/metapack/internal/hcode"
	"github.com/metapack/metapack/internal/indexpolicy"
	"github.com/metapack/metapack/internal/tabledef"
	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// sectionState is what encoding one section tracks.
type sectionState struct {
	base     uint64 // the section's Base: the inserts before it
	mayBlock bool   // it may refer to entries the peer has not acknowledged
	dynamic  bool   // it may refer to the dynamic table at all
	maxRef   uint64 // 1 + the newest entry it refers to: its Required Insert Count
	minRef   uint64 // the oldest entry it refers to
	floor    uint64 // the oldest entry no eviction may reach
}

// AppendSection appends the field section of b's fields for stream
// streamID to section, and the encoder-stream instructions it needs to
// encStream, and returns both. Write encStream's new bytes on the encoder
// stream before the section, or with it: a peer that reads the section
// first waits for them. Encoder-stream bytes must reach the stream in the
// order of the calls that made them, so streams encoding from several
// goroutines hold one lock over the call and that write. A nil b is an
// empty section; fields that hold no string are dropped, as Batch.Append
// drops them. With room in both buffers it does not allocate.
func (e *Encoder) AppendSection(section, encStream []byte, streamID uint64, b *mdelem.Batch) ([]byte, []byte) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.sections++
	encStream = e.announceCapacity(encStream)
	st := sectionState{minRef: math.MaxUint64}
	st.dynamic = e.err == nil && e.table.Max() > 0 && len(e.pending) < maxPending
	if st.dynamic {
		st.mayBlock = e.streamBlocking(streamID) || e.takesBlocked(b)
		st.floor = e.evictionFloor()
	}
	st.base = e.inserts
	start := len(section)
	section = append(section, 0, 0) // the prefix of most sections' length
	if b != nil {
		for i := range b.Len() {
			f := b.At(i)
			if f.Name.IsValid() && f.Value.IsValid() {
				section, encStream = e.field(&st, &f, section, encStream)
			}
		}
	}
	if st.maxRef > 0 {
		var buf [2 * maxIntLen]byte
		if p := e.appendPrefix(buf[:0], &st); len(p) == 2 {
			copy(section[start:], p)
		} else {
			section = slices.Replace(section, start, start+2, p...)
		}
	}
	if st.maxRef > 0 {
		e.pending = append(e.pending, pendingSection{stream: streamID, required: st.maxRef, minRef: st.minRef})
		if st.maxRef > e.known {
			e.blocking++
		}
	}
	return section, encStream
}

// AppendField appends f to section as one field line of a section with
// no dynamic table, after its prefix of two zero bytes: the line
// AppendSection writes for f while the Encoder has no table. It suits an
// API that encodes one field at a time; a field with an invalid side
// appends nothing.
func (e *Encoder) AppendField(section []byte, f mdelem.Field) []byte {
	if !f.Name.IsValid() || !f.Value.IsValid() {
		return section
	}
	if f.Name.Atom() == nil {
		// A batch holds a name that has an atom as the atom, which is
		// what finds its static entry.
		if a := staticdata.Lookup(f.Name.UnsafeString()); a != nil {
			f = mdelem.Field{Name: mdelem.StrOf(a), Value: f.Value}.WithSensitive(f.Sensitive())
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	st := sectionState{minRef: math.MaxUint64}
	section, _ = e.field(&st, &f, section, nil)
	return section
}

// announceCapacity sets the table's capacity to its target once the
// entries over it are evictable, with a Set Dynamic Table Capacity.
func (e *Encoder) announceCapacity(es []byte) []byte {
	if e.target == e.sent || e.err != nil {
		return es
	}
	if e.target < e.table.Size() {
		if e.evictedEnd(uint64(e.table.Max()-e.target)) > e.evictionFloor() {
			return es
		}
	}
	e.table.SetMax(e.target)
	e.sent = e.target
	return hcode.AppendInt(es, 5, 0x20, uint64(e.target))
}

// evictionFloor returns the oldest entry that may not be evicted: an
// entry is evictable once its insert is acknowledged and no section
// outstanding refers to it (RFC 9204 §2.1.1).
func (e *Encoder) evictionFloor() uint64 {
	floor := e.known
	for _, s := range e.pending {
		floor = min(floor, s.minRef)
	}
	return floor
}

// fits reports whether an entry of size size can be inserted now,
// evicting only evictable entries that no section being encoded refers to.
func (e *Encoder) fits(st *sectionState, size uint64) bool {
	return size <= uint64(e.table.Max()) && e.evictedEnd(size) <= min(st.floor, st.minRef)
}

// admits reports whether an insert of size bytes, of the name of hash nh,
// may be made now: it fits, evicts little that is in use (worth), and, in
// a section that cannot refer to it, is not of a name whose entries went
// unused. Such a section sends the field as a literal too, so an unused
// insert costs it twice. (Eager sections skipping those names too took
// 4096.100.1 from 18.21% to 18.44%.)
func (e *Encoder) admits(st *sectionState, size, nh uint64) bool {
	return e.fits(st, size) && e.worth(size, st.mayBlock) && (st.mayBlock || e.unused.mayInsert(nh))
}

// survives reports whether entry abs is still in the table after an
// insert of size size.
func (e *Encoder) survives(abs, size uint64) bool { return abs >= e.evictedEnd(size) }

// evictedEnd returns the absolute index of the oldest entry that stays
// when size more bytes must fit (at most the capacity): the entries below
// it are evicted.
func (e *Encoder) evictedEnd(size uint64) uint64 {
	m, used := uint64(e.table.Max()), uint64(e.table.Size())
	count := e.table.Count()
	oldest := e.inserts - uint64(count)
	if used+size <= m {
		return oldest
	}
	over := used + size - m
	k := uint32(0)
	for ; k < count && over > 0; k++ {
		over -= min(over, uint64(e.table.EntrySize(count-1-k)))
	}
	return oldest + uint64(k)
}

// draining reports whether the entry of absolute index abs is among the
// oldest, which inserting an eighth of the capacity would evict, or a
// quarter when the section cannot refer to a duplicate until the peer
// acknowledges it (mayBlock false), so that duplicates start earlier.
func (e *Encoder) draining(st *sectionState, abs uint64) bool {
	frac := uint32(8)
	if !st.mayBlock {
		frac = 4
	}
	if e.drainInserts != e.inserts || e.drainMax != e.table.Max() || e.drainFrac != frac {
		e.drainEnd = e.evictedEnd(uint64(e.table.Max() / frac))
		e.drainInserts, e.drainMax, e.drainFrac = e.inserts, e.table.Max(), frac
	}
	return abs < e.drainEnd
}

// usable reports whether the section may refer to entry abs.
func (e *Encoder) usable(st *sectionState, abs uint64) bool {
	return abs < e.known || st.mayBlock
}

// present reports whether entry abs is still in the table.
func (e *Encoder) present(abs uint64) bool {
	return abs < e.inserts && e.inserts-abs <= uint64(e.table.Count())
}

// hit records a reference to entry abs by the section being encoded,
// found as a whole field, and reports whether it is the entry's first by
// a section other than the one that inserted it (see use).
func (e *Encoder) hit(st *sectionState, abs uint64) (first bool) {
	if len(e.uses) > 0 {
		u := &e.uses[abs&uint64(len(e.uses)-1)]
		u.refs = min(u.refs+1, math.MaxUint16)
		u.last = e.sections
		first = u.markUsed(st, abs)
	}
	return first
}

// refer records that the section refers to entry abs.
func (st *sectionState) refer(abs uint64) {
	st.maxRef = max(st.maxRef, abs+1)
	st.minRef = min(st.minRef, abs)
}

// field appends f's field line to sec, and the instructions it needs to
// es.
func (e *Encoder) field(st *sectionState, f *mdelem.Field, sec, es []byte) ([]byte, []byte) {
	var v enctable.Field
	v.NameAtom, v.ValueAtom = f.Name.Atom(), f.Value.Atom()
	v.Name, v.Value = f.Name.UnsafeString(), f.Value.UnsafeString()
	never, cred := f.Sensitive(), false
	staticIndex, staticName := uint8(tier.QPACKNone), uint8(tier.QPACKNone)
	if v.NameAtom != nil {
		key := staticdata.KeyID(tier.KeyOf(v.NameAtom))
		if !never && indexpolicy.NeverIndexed(key, len(v.Value)) {
			cred = e.indexCreds && key != staticdata.KeyCookie
			never = !cred
		}
		if staticName = tier.QPACKNameIndex(v.NameAtom); staticName != tier.QPACKNone {
			if v.ValueAtom == nil && tier.MayBeAtom(v.Value) {
				v.ValueAtom = tier.Lookup(v.Value)
			}
			staticIndex, _ = tier.QPACKLookupFieldAtoms(v.NameAtom, v.ValueAtom)
		}
	}
	if staticIndex != tier.QPACKNone && !never {
		return hcode.AppendInt(sec, 6, 0xc0, uint64(staticIndex)), es
	}
	var nh, ph uint64
	if st.dynamic {
		nh = indexpolicy.StrHash(v.NameAtom, v.Name)
		if !never {
			ph = tabledef.PairHash(nh, indexpolicy.ValueHash(v.Value))
			if e.table.Count() > 0 {
				if age, ok := e.table.FindField(ph, &v); ok {
					abs := e.inserts - 1 - uint64(age)
					if e.draining(st, abs) && e.fits(st, fieldSize(&v)) {
						es = hcode.AppendInt(es, 5, 0x00, e.inserts-1-abs) // Duplicate
						e.add(&v, nh, ph)
						if st.mayBlock {
							abs = e.inserts - 1
						}
					}
					if e.present(abs) && e.usable(st, abs) {
						if e.hit(st, abs) {
							e.unused.used(e.nameTag(abs))
						}
						e.policy.Repeat(nh)
						return e.appendIndexed(sec, st, abs), es
					}
				}
			}
		}
	}
	nameAbs, dynName := uint64(0), false
	if st.dynamic && staticName == tier.QPACKNone && e.table.Count() > 0 {
		if age, ok := e.table.FindName(nh, &v); ok {
			nameAbs, dynName = e.inserts-1-uint64(age), true
		}
	}
	// A name seen within the last Max/16 such fields (twice the entries
	// the table can hold) may recur while its name-only entry is still
	// there. (Any name seen at all: 300 names in turn cost 7% more than
	// the static table alone at 1024.100.1. Max/32 and Max/64 cost the
	// corpus's 4096.100.1 18.21% -> 18.32%; Max/8 did as Max/16.)
	knownName := st.dynamic && staticName == tier.QPACKNone &&
		e.policy.RecentName(nh, uint64(min(e.table.Max()/16, 1<<15)))
	inserted := false
	if st.dynamic && !never {
		size := fieldSize(&v)
		var insert bool
		switch {
		case cred:
			insert = indexpolicy.IndexesCredential(size, uint64(e.table.Max()))
		case st.mayBlock && e.known == 0:
			// Nothing is acknowledged, so nothing can be evicted: the
			// first entries stay, and the section can refer to them at
			// once. (On the QPACK offline-interop corpus, without
			// acknowledgments: 51.67% of the raw bytes to 51.37%.)
			insert = e.policy.IndexesSteady(size, uint64(e.table.Max()), nh, ph)
		default:
			insert = e.policy.Indexes(size, uint64(e.table.Max()), nh, ph, staticName != tier.QPACKNone || dynName, false)
		}
		if insert && e.admits(st, size, nh) {
			es = e.appendInsert(es, &v, staticName, nameAbs, dynName, size)
			e.add(&v, nh, ph)
			inserted = true
			if st.mayBlock {
				return e.appendIndexed(sec, st, e.inserts-1), es
			}
		}
	}
	if knownName && !inserted && !(dynName && e.present(nameAbs)) {
		// A name that recurs with other values: insert it with an empty
		// value, for the literals to refer to, if the entry is at most an
		// eighth of the table: in a smaller table it is evicted before it
		// pays. (Without this bound, a 256-byte table's inserts cost 10%
		// more than the static table alone on a connection with 300 names
		// in turn, 10 a section; on the QPACK offline-interop corpus an
		// eighth took 256.100.1 from 54.13% to 53.85%, and a sixteenth or
		// a thirty-second did the same.)
		size := uint64(len(v.Name)) + entryOverhead
		if size*8 <= uint64(e.table.Max()) && e.admits(st, size, nh) {
			es = hcode.AppendString(es, 5, 0x40, v.Name, true)
			es = append(es, 0)
			nv := enctable.Field{NameAtom: v.NameAtom, Name: v.Name, ValueAtom: emptyAtom}
			e.add(&nv, nh, tabledef.PairHash(nh, indexpolicy.ValueHash("")))
			nameAbs, dynName = e.inserts-1, true
		}
	}
	var n byte // the N bit
	if never {
		n = 0x20
	}
	switch {
	case staticName != tier.QPACKNone:
		sec = hcode.AppendInt(sec, 4, 0x50|n, uint64(staticName))
	case dynName && e.present(nameAbs) && e.usable(st, nameAbs):
		st.refer(nameAbs)
		e.use(st, nameAbs)
		if nameAbs < st.base {
			sec = hcode.AppendInt(sec, 4, 0x40|n, st.base-1-nameAbs)
		} else { // post-base, with the N bit two places lower
			sec = hcode.AppendInt(sec, 3, n>>2, nameAbs-st.base)
		}
	default:
		sec = hcode.AppendString(sec, 3, 0x20|n>>1, v.Name, true)
	}
	return e.appendValue(sec, v.Value, never || !st.dynamic), es
}

// appendIndexed appends an Indexed Field Line referring to entry abs:
// relative to the Base, or post-base for entries this section inserted.
func (e *Encoder) appendIndexed(sec []byte, st *sectionState, abs uint64) []byte {
	st.refer(abs)
	if abs < st.base {
		return hcode.AppendInt(sec, 6, 0x80, st.base-1-abs)
	}
	return hcode.AppendInt(sec, 4, 0x10, abs-st.base)
}

// fieldSize returns a field's entry size.
func fieldSize(v *enctable.Field) uint64 {
	return uint64(len(v.Name)) + uint64(len(v.Value)) + entryOverhead
}

// add inserts the field into the table, which has room, and counts it.
func (e *Encoder) add(v *enctable.Field, nh, ph uint64) {
	if len(e.uses) > 0 {
		// The entries this insert evicts: those no later section used
		// were inserted for nothing.
		oldest := e.inserts - uint64(e.table.Count())
		for abs, end := oldest, e.evictedEnd(fieldSize(v)); abs < end; abs++ {
			if !e.uses[abs&uint64(len(e.uses)-1)].used {
				e.unused.evictedUnused(e.nameTag(abs))
			}
		}
	}
	e.table.Add(v, nh, ph)
	// The table holds at most Max/32 entries: that many slots, rounded
	// up to a power of two, keep every live entry's apart.
	if n := max(int(e.table.Max()/entryOverhead), 1); len(e.uses) < n {
		e.uses = make([]entryUse, 1<<bits.Len(uint(n-1)))
	}
	e.uses[e.inserts&uint64(len(e.uses)-1)] = entryUse{last: e.sections}
	e.inserts++
}

// use records that the section refers to entry abs, by its field or its
// name: once a section other than the one that inserted it does, the
// insert has paid.
func (e *Encoder) use(st *sectionState, abs uint64) {
	if len(e.uses) > 0 && e.uses[abs&uint64(len(e.uses)-1)].markUsed(st, abs) {
		e.unused.used(e.nameTag(abs))
	}
}

// markUsed marks the use record u of entry abs used when the section,
// which refers to it, is not the one that inserted it, and reports
// whether that is new.
func (u *entryUse) markUsed(st *sectionState, abs uint64) bool {
	first := !u.used && abs < st.base
	u.used = u.used || first
	return first
}

// nameTag returns the hash tag of the name of entry abs, which is in the
// table.
func (e *Encoder) nameTag(abs uint64) uint32 {
	return indexpolicy.HashTag(e.table.NameHash(uint32(e.inserts - 1 - abs)))
}

// worth reports whether an insert of size bytes evicts few enough bytes
// of entries in use: entries that a section referred to within the last
// Max/16 sections (256 for a 4096-byte table), each counted once per
// reference, up to 3 times in a table of 1 KiB or more when the section
// may refer to the insert at once (eager), else once. Eager, those bytes
// may be at most 4 times the insert's size (once its size in tables
// under 1 KiB); otherwise, since the peer must acknowledge the insert
// before it pays, at most a quarter of it. (Measured on the QPACK offline-
// interop corpus against never evicting referred entries and ignoring
// references: see the closing note of issue #33. Counting references
// took 4096.100.1 from 18.37% of the raw bytes to 18.21%. Forgetting
// references after Max/16 sections, rather than never, keeps a table
// whose fields have changed from refusing every insert, as
// TestEncoderTableDrift checks; on the corpus it took 256.100.1 from
// 54.45% to 54.13%, and the quarter took 4096.0.1 from 21.02% to 20.80%;
// Max/8 and Max/32 did worse, as did a half.)
func (e *Encoder) worth(size uint64, eager bool) bool {
	factor, maxWeight := uint64(16), uint32(1)
	if eager {
		// A small table's entries are each a larger share of it.
		factor = min(max(1024/uint64(e.table.Max()), 1), 4)
		if e.table.Max() >= 1024 {
			maxWeight = 3
		}
	}
	m := uint64(e.table.Max())
	used := uint64(e.table.Size())
	if used+size <= m {
		return true
	}
	over := used + size - m
	count := e.table.Count()
	oldest := e.inserts - uint64(count)
	window := max(e.table.Max()/16, 1) // in sections
	valuable := uint64(0)
	for k := uint32(0); k < count && over > 0; k++ {
		es := uint64(e.table.EntrySize(count - 1 - k))
		if u := e.uses[(oldest+uint64(k))&uint64(len(e.uses)-1)]; e.sections-u.last < window {
			valuable += es * uint64(min(uint32(u.refs), maxWeight))
		}
		over -= min(over, es)
	}
	return valuable*factor <= size*4
}

// appendInsert appends the insert instruction of a field of size size:
// with the static name, or the dynamic one at nameAbs when this insert
// does not evict it, or a literal name.
func (e *Encoder) appendInsert(es []byte, v *enctable.Field, staticName uint8, nameAbs uint64, dynName bool, size uint64) []byte {
	if staticName != tier.QPACKNone {
		es = hcode.AppendInt(es, 6, 0xc0, uint64(staticName))
		return hcode.AppendString(es, 7, 0, v.Value, true)
	}
	if dynName && e.survives(nameAbs, size) {
		es = hcode.AppendInt(es, 6, 0x80, e.inserts-1-nameAbs)
		return hcode.AppendString(es, 7, 0, v.Value, true)
	}
	es = hcode.AppendString(es, 5, 0x40, v.Name, true)
	return hcode.AppendString(es, 7, 0, v.Value, true)
}

// maxIntLen is the longest prefix integer of 62 bits.
const maxIntLen = 10

// appendPrefix appends the prefix of a section that refers to the dynamic
// table (RFC 9204 §4.5.1): its Required Insert Count, encoded, and its
// Base as a signed difference from it.
func (e *Encoder) appendPrefix(dst []byte, st *sectionState) []byte {
	ric := st.maxRef
	dst = hcode.AppendInt(dst, 8, 0, ric%(2*e.maxEntries)+1)
	if ric > st.base {
		return hcode.AppendInt(dst, 7, 0x80, ric-st.base-1)
	}
	return hcode.AppendInt(dst, 7, 0, st.base-ric)
}

// emptyAtom is the empty string's atom.
var emptyAtom = tier.Lookup("")

// entryUse is what the Encoder knows of an entry's use: the references
// sections made to it since it was inserted, and the section (by the
// Encoder's count, modulo 2^32) that made the last, or inserted it.
type entryUse struct {
	last uint32
	refs uint16 // saturated: worth counts a few
	used bool   // a section other than the one that inserted it referred to it
}
