package qpack

import (
	"math"
	"math/bits"

	"github.com/metapack/metapack/internal/enctable"
	"github.com/metapack/metapack/internal/hcode"
	"github.com/metapack/metapack/internal/indexpolicy"
	"github.com/metapack/metapack/internal/tabledef"
	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// lineKind is a field line's representation (RFC 9204 §4.5.2-6).
type lineKind uint8

const (
	lineStatic      lineKind = iota // Indexed Field Line, static
	lineDynamic                     // Indexed Field Line, dynamic
	lineStaticName                  // Literal with Name Reference, static
	lineDynamicName                 // Literal with Name Reference, dynamic
	lineLiteral                     // Literal with Literal Name
)

// line is a field line chosen, written once the section's Required Insert
// Count is known. index is a static or an absolute index.
type line struct {
	kind        lineKind
	never       bool
	index       uint64
	name, value string
}

// sectionState is what encoding one section tracks.
type sectionState struct {
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
// first waits for them. A nil b is an empty section; fields that hold no
// string are dropped, as Batch.Append drops them. With room in both
// buffers it does not allocate.
func (e *Encoder) AppendSection(section, encStream []byte, streamID uint64, b *mdelem.Batch) ([]byte, []byte) {
	e.mu.Lock()
	defer e.mu.Unlock()
	encStream = e.announceCapacity(encStream)
	st := sectionState{minRef: math.MaxUint64}
	st.dynamic = e.err == nil && e.table.Max() > 0 && len(e.pending) < maxPending
	if st.dynamic {
		st.mayBlock = e.blocking < e.peerBlocked || e.streamBlocking(streamID)
		st.floor = e.inserts
		for _, s := range e.pending {
			st.floor = min(st.floor, s.minRef)
		}
	}
	e.lines = e.lines[:0]
	if b != nil {
		for i := range b.Len() {
			f := b.At(i)
			if f.Name.IsValid() && f.Value.IsValid() {
				encStream = e.field(&st, &f, encStream)
			}
		}
	}
	section = e.appendLines(section, &st)
	if st.maxRef > 0 {
		e.pending = append(e.pending, pendingSection{stream: streamID, required: st.maxRef, minRef: st.minRef})
		if st.maxRef > e.known {
			e.blocking++
		}
	}
	return section, encStream
}

// announceCapacity sets the table's capacity to its target once the
// entries over it are evictable, with a Set Dynamic Table Capacity.
func (e *Encoder) announceCapacity(es []byte) []byte {
	if e.target == e.sent || e.err != nil {
		return es
	}
	if e.target < e.table.Size() {
		floor := e.inserts
		for _, s := range e.pending {
			floor = min(floor, s.minRef)
		}
		if !e.evictable(e.table.Size()-e.target, floor) {
			return es
		}
	}
	e.table.SetMax(e.target)
	e.sent = e.target
	return hcode.AppendInt(es, 5, 0x20, uint64(e.target))
}

// evictable reports whether evicting entries older than floor frees at
// least n bytes.
func (e *Encoder) evictable(n uint32, floor uint64) bool {
	count := e.table.Count()
	oldest := e.inserts - uint64(count)
	for k := uint32(0); n > 0; k++ {
		if k == count || oldest+uint64(k) >= floor {
			return false
		}
		n -= min(n, e.table.EntrySize(count-1-k))
	}
	return true
}

// fits reports whether an entry of size size can be inserted now,
// evicting only entries no section outstanding refers to.
func (e *Encoder) fits(st *sectionState, size uint64) bool {
	m := uint64(e.table.Max())
	if size > m {
		return false
	}
	used := uint64(e.table.Size())
	if used+size <= m {
		return true
	}
	return e.evictable(uint32(used+size-m), min(st.floor, st.minRef))
}

// draining reports whether the entry of absolute index abs is among the
// oldest, which inserting a quarter of the capacity would evict.
func (e *Encoder) draining(abs uint64) bool {
	m := e.table.Max()
	used := e.table.Size()
	if used+m/4 <= m {
		return false
	}
	over := used + m/4 - m
	count := e.table.Count()
	oldest := e.inserts - uint64(count)
	for k := uint32(0); k < count && over > 0; k++ {
		if oldest+uint64(k) == abs {
			return true
		}
		over -= min(over, e.table.EntrySize(count-1-k))
	}
	return false
}

// usable reports whether the section may refer to entry abs.
func (e *Encoder) usable(st *sectionState, abs uint64) bool {
	return abs < e.known || st.mayBlock
}

// present reports whether entry abs is still in the table.
func (e *Encoder) present(abs uint64) bool {
	return abs < e.inserts && e.inserts-abs <= uint64(e.table.Count())
}

// refer records a reference to entry abs.
func (e *Encoder) hit(abs uint64) {
	if len(e.hits) > 0 {
		e.hits[abs&uint64(len(e.hits)-1)]++
	}
}

func (st *sectionState) refer(abs uint64) {
	st.maxRef = max(st.maxRef, abs+1)
	st.minRef = min(st.minRef, abs)
}

// field chooses f's field line, appending the instructions it needs to es.
func (e *Encoder) field(st *sectionState, f *mdelem.Field, es []byte) []byte {
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
		e.lines = append(e.lines, line{kind: lineStatic, index: uint64(staticIndex)})
		return es
	}
	var nh, ph uint64
	if st.dynamic {
		nh = indexpolicy.StrHash(v.NameAtom, v.Name)
		if !never {
			ph = tabledef.PairHash(nh, indexpolicy.ValueHash(v.Value))
			if e.table.Count() > 0 {
				if age, ok := e.table.FindField(ph, &v); ok {
					abs := e.inserts - 1 - uint64(age)
					if e.draining(abs) && e.fits(st, fieldSize(&v)) {
						es = hcode.AppendInt(es, 5, 0x00, e.inserts-1-abs) // Duplicate
						e.add(&v, nh, ph)
						if st.mayBlock {
							abs = e.inserts - 1
						}
					}
					if e.present(abs) && e.usable(st, abs) {
						e.hit(abs)
						e.policy.Repeat(nh)
						st.refer(abs)
						e.lines = append(e.lines, line{kind: lineDynamic, index: abs})
						return es
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
	if st.dynamic && !never {
		size := fieldSize(&v)
		var insert bool
		if cred {
			insert = indexpolicy.IndexesCredential(size, uint64(e.table.Max()))
		} else {
			insert = e.policy.Indexes(size, uint64(e.table.Max()), nh, ph, staticName != tier.QPACKNone || dynName, st.mayBlock)
		}
		if insert && e.fits(st, size) && e.worth(size, st.mayBlock) {
			es = e.appendInsert(es, &v, staticName, nameAbs, dynName, size)
			e.add(&v, nh, ph)
			if st.mayBlock {
				abs := e.inserts - 1
				st.refer(abs)
				e.lines = append(e.lines, line{kind: lineDynamic, index: abs})
				return es
			}
		}
	}
	switch {
	case staticName != tier.QPACKNone:
		e.lines = append(e.lines, line{kind: lineStaticName, never: never, index: uint64(staticName), value: v.Value})
	case dynName && e.present(nameAbs) && e.usable(st, nameAbs):
		st.refer(nameAbs)
		e.lines = append(e.lines, line{kind: lineDynamicName, never: never, index: nameAbs, value: v.Value})
	default:
		e.lines = append(e.lines, line{kind: lineLiteral, never: never, name: v.Name, value: v.Value})
	}
	return es
}

// fieldSize returns a field's entry size.
func fieldSize(v *enctable.Field) uint64 {
	return uint64(len(v.Name)) + uint64(len(v.Value)) + entryOverhead
}

// add inserts the field into the table, which has room, and counts it.
func (e *Encoder) add(v *enctable.Field, nh, ph uint64) {
	e.table.Add(v, nh, ph)
	if n := int(e.table.Max()/entryOverhead + 1); len(e.hits) < n {
		e.hits = make([]uint32, 1<<bits.Len(uint(n)))
	}
	e.hits[e.inserts&uint64(len(e.hits)-1)] = 0
	e.inserts++
}

// worth reports whether an insert of size bytes evicts few enough bytes
// of entries that sections have referred to: at most twice its size when
// the section may refer to it at once (eager), else at most a quarter,
// since the peer must acknowledge it before it pays. (On the QPACK
// offline-interop corpus these beat both never evicting referred entries
// and ignoring references, by 1.3% and 7% of the wire bytes.)
func (e *Encoder) worth(size uint64, eager bool) bool {
	factor := uint64(16)
	if eager {
		factor = 2
	}
	m := uint64(e.table.Max())
	used := uint64(e.table.Size())
	if used+size <= m {
		return true
	}
	over := used + size - m
	count := e.table.Count()
	oldest := e.inserts - uint64(count)
	valuable := uint64(0)
	for k := uint32(0); k < count && over > 0; k++ {
		es := uint64(e.table.EntrySize(count - 1 - k))
		if e.hits[(oldest+uint64(k))&uint64(len(e.hits)-1)] > 0 {
			valuable += es
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

// survives reports whether entry abs is still in the table after an
// insert of size size.
func (e *Encoder) survives(abs, size uint64) bool {
	m := uint64(e.table.Max())
	used := uint64(e.table.Size())
	if used+size <= m {
		return true
	}
	over := used + size - m
	count := e.table.Count()
	oldest := e.inserts - uint64(count)
	for k := uint32(0); k < count && over > 0; k++ {
		if oldest+uint64(k) == abs {
			return false
		}
		over -= min(over, uint64(e.table.EntrySize(count-1-k)))
	}
	return true
}

// appendLines appends the section: its prefix, with Base equal to the
// Required Insert Count, and the lines chosen.
func (e *Encoder) appendLines(dst []byte, st *sectionState) []byte {
	ric := st.maxRef
	if ric == 0 {
		dst = append(dst, 0, 0)
	} else {
		dst = hcode.AppendInt(dst, 8, 0, ric%(2*e.maxEntries)+1)
		dst = append(dst, 0) // Delta Base 0, sign 0
	}
	for i := range e.lines {
		dst = e.appendLine(dst, &e.lines[i], ric)
	}
	return dst
}

func (e *Encoder) appendLine(dst []byte, l *line, ric uint64) []byte {
	{
		var n byte
		switch l.kind {
		case lineStatic:
			dst = hcode.AppendInt(dst, 6, 0xc0, l.index)
		case lineDynamic:
			dst = hcode.AppendInt(dst, 6, 0x80, ric-1-l.index)
		case lineStaticName:
			if l.never {
				n = 0x20
			}
			dst = hcode.AppendInt(dst, 4, 0x50|n, l.index)
			dst = hcode.AppendString(dst, 7, 0, l.value, true)
		case lineDynamicName:
			if l.never {
				n = 0x20
			}
			dst = hcode.AppendInt(dst, 4, 0x40|n, ric-1-l.index)
			dst = hcode.AppendString(dst, 7, 0, l.value, true)
		default:
			if l.never {
				n = 0x10
			}
			dst = hcode.AppendString(dst, 3, 0x20|n, l.name, true)
			dst = hcode.AppendString(dst, 7, 0, l.value, true)
		}
	}
	return dst
}
