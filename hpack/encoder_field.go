package hpack

import (
	"github.com/metapack/metapack/internal/enctable"
	"github.com/metapack/metapack/internal/hcode"
	"github.com/metapack/metapack/internal/indexpolicy"

	"github.com/metapack/metapack/internal/tabledef"
	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// First bytes of the representations (RFC 7541 §6), with their integer
// prefix sizes.
const (
	reprIndexed     = 0x80 // §6.1, 7-bit index
	reprIncremental = 0x40 // §6.2.1, 6-bit name index
	reprNone        = 0x00 // §6.2.2, 4-bit name index
	reprNever       = 0x10 // §6.2.3, 4-bit name index
	reprSizeUpdate  = 0x20 // §6.3, 5-bit size
)

// dynIndexBase is the HPACK index of the newest dynamic entry.
const dynIndexBase = tier.TableLen + 1

// appendField appends f's representation, sent as how says unless f is
// Sensitive; indexDefault leaves the choice to the default policy.
func (e *Encoder) appendField(dst []byte, f *mdelem.Field, how indexing) []byte {
	var v enctable.Field // filled field by field: faster than a composite literal
	v.NameAtom, v.ValueAtom = f.Name.Atom(), f.Value.Atom()
	v.Name, v.Value = f.Name.UnsafeString(), f.Value.UnsafeString()
	if f.Sensitive() {
		how = indexNever
	}
	if how == indexDefault && v.NameAtom != nil && indexpolicy.NeverIndexed(staticdata.KeyID(tier.KeyOf(v.NameAtom)), len(v.Value)) {
		how = indexNever
		if e.indexCreds && staticdata.KeyID(tier.KeyOf(v.NameAtom)) != staticdata.KeyCookie {
			how = e.credentialIndexing(&v)
		}
	}
	var nameIndex uint8
	if v.NameAtom != nil {
		var index uint8
		index, nameIndex = staticMatch(&v)
		if index != 0 && how != indexNever {
			return append(dst, reprIndexed|index) // static indexes fit the 7-bit prefix
		}
	}
	var nh, ph uint64
	if how == indexNever {
		// Neither looked up nor added: only the name may be in the table.
		if nameIndex == 0 && e.table.Count() > 0 {
			nh = indexpolicy.StrHash(v.NameAtom, v.Name)
		}
	} else if e.table.Max() > 0 {
		nh = indexpolicy.StrHash(v.NameAtom, v.Name)
		ph = tabledef.PairHash(nh, indexpolicy.ValueHash(v.Value))
		if e.table.Count() > 0 {
			if age, ok := e.table.FindField(ph, &v); ok {
				return e.appendHit(dst, how, nh, age)
			}
		}
	}
	idx := uint64(nameIndex)
	if idx == 0 && e.table.Count() > 0 {
		if age, ok := e.table.FindName(nh, &v); ok {
			idx = uint64(dynIndexBase + age)
		}
	}
	if how == indexDefault {
		how = e.defaultIndexing(&v, nh, ph, idx != 0)
	}
	switch how {
	case indexIncremental:
		dst = hcode.AppendInt(dst, 6, reprIncremental, idx)
	case indexNever:
		dst = hcode.AppendInt(dst, 4, reprNever, idx)
	default:
		dst = hcode.AppendInt(dst, 4, reprNone, idx)
	}
	if idx == 0 {
		dst = hcode.AppendString(dst, 7, 0, v.Name, true)
	}
	if how == indexNever && cacheable(len(v.Value)) {
		dst = e.lits.appendString(dst, v.Value)
	} else {
		dst = hcode.AppendString(dst, 7, 0, v.Value, true)
	}
	if how == indexIncremental {
		e.table.Add(&v, nh, ph)
	}
	return dst
}

// appendHit appends the index of the dynamic entry of age age, which
// equals the field.
func (e *Encoder) appendHit(dst []byte, how indexing, nh uint64, age uint32) []byte {
	if how == indexDefault {
		e.policy.Repeat(nh)
	}
	return hcode.AppendInt(dst, 7, reprIndexed, uint64(dynIndexBase+age))
}

// staticMatch returns the static index of the field, whose name is an
// atom, and the first static index with its name, or 0s. A value that is a
// static-tier string gets its atom in v.ValueAtom, unless only "" can
// match (most names): then the value is not looked up.
func staticMatch(v *enctable.Field) (index, nameIndex uint8) {
	nameIndex = tier.NameIndex(v.NameAtom)
	if nameIndex == 0 || v.Value != "" && !tier.HasValues(nameIndex) {
		return 0, nameIndex
	}
	if v.ValueAtom == nil {
		if !tier.MayBeAtom(v.Value) {
			return 0, nameIndex
		}
		if v.ValueAtom = tier.Lookup(v.Value); v.ValueAtom == nil {
			return 0, nameIndex
		}
	}
	return tier.LookupFieldAtoms(v.NameAtom, v.ValueAtom)
}

// litCache keeps the encoding of the last few long never-indexed values,
// such as a bearer token sent in every request.
const (
	litCacheSlots  = 4
	litCacheMinLen = 48   // shorter values are cheap to encode
	litCacheMaxLen = 4096 // bounds the cache's memory
)

type litCacheSlot struct {
	raw []byte // the value
	enc []byte // its HPACK string: length prefix and (Huffman) bytes
}

// litCache replaces its slots in turn; Reset keeps it.
type litCache struct {
	slots [litCacheSlots]litCacheSlot
	next  uint8
}

// appendString appends s as an HPACK string, from the cache when s is
// there, and caches it otherwise.
func (c *litCache) appendString(dst []byte, s string) []byte {
	for i := range c.slots {
		if string(c.slots[i].raw) == s {
			return append(dst, c.slots[i].enc...)
		}
	}
	start := len(dst)
	dst = hcode.AppendString(dst, 7, 0, s, true)
	slot := &c.slots[c.next%litCacheSlots]
	c.next++
	slot.raw = append(slot.raw[:0], s...)
	slot.enc = append(slot.enc[:0], dst[start:]...)
	return dst
}

// cacheable reports whether a never-indexed value of n bytes goes through
// the cache.
func cacheable(n int) bool { return n >= litCacheMinLen && n <= litCacheMaxLen }
