package mdelem

import (
	"slices"

	"github.com/metapack/metapack/staticdata"
)

// staticNamed returns f with its name, given as bytes, replaced by a, the
// static atom that spells it. The never-index mark lives in the name's
// tag: it is kept.
func staticNamed(f Field, a *staticdata.Atom) Field {
	f.Name = atomStr(a, tagStatic|f.Name.tag&neverIndexBit)
	return f
}

// index does Append's bookkeeping for field n, whose name is the atom a:
// it sets pins when tags (the two tags or'ed) has pinBit, fills a's slot
// if it is the first field with a's key, and adds size, the field's
// name and value lengths, to the batch's size.
func (b *Batch) index(n int, a *staticdata.Atom, tags uint64, size int) {
	// Store pins only when it changes: most fields pin nothing, and a
	// read-modify-write of it on every field costs more than a branch.
	if tags&pinBit != 0 {
		b.pins = true
	}
	// One unsigned test rules out both KeyUnknown and a key past the
	// slots, which only a forged atom could have.
	if k := uint(a.Key()) - 1; k < staticdata.NumKeys-1 {
		if s := &b.slots[1:][k]; *s <= b.base {
			*s = b.base + uint64(n) + 1
		}
	}
	b.size += size + 32
}

// appendSafe is Append in plain bounds-checked Go, with the same results:
// the same bytes, kinds, marks, size, slots and pins. A name given as
// bytes that spells a static atom is resolved to it, and the rest is
// appendResolved's. Under purego, Append is appendSafe; in the default
// build it is Append's twin, which TestAppendTwins compares it with.
func (b *Batch) appendSafe(f Field) {
	if f.Name.tag&tagBytes != 0 {
		if a := staticdata.LookupBytes(f.Name.bytes()); a != nil {
			f = staticNamed(f, a)
		}
	}
	b.appendResolved(f)
}

// appendResolved appends f, whose name is an atom, the zero Str, or bytes
// that spell no atom, growing the fields and the arena as it must. It
// copies borrowed bytes into the arena, after which they are owned.
func (b *Batch) appendResolved(f Field) {
	n := len(b.fields)
	if n == cap(b.fields) {
		b.fields = slices.Grow(b.fields, 1)
	}
	nt, vt := f.Name.tag, f.Value.tag
	var a *staticdata.Atom
	if nt&tagBytes == 0 {
		a = f.Name.atomRaw() // nil for the zero Str
	}
	// Bytes copied into the arena pin nothing (growArena sets pins itself
	// when the arena is replaced); interned atoms and owned bytes do.
	if (nt|vt)&pinBit != 0 {
		b.pins = true
	}
	size := 32
	if a != nil {
		size += len(a.String())
		if k := a.Key(); k != staticdata.KeyUnknown && b.slots[k] <= b.base {
			b.slots[k] = b.base + uint64(n) + 1
		}
	} else {
		size += int(nt & lenMask)
	}
	if vt&tagBytes != 0 {
		size += int(vt & lenMask)
	} else if v := f.Value.atomRaw(); v != nil {
		size += len(v.String())
	}
	b.size += size
	// Copy borrowed bytes into the arena, both sides in one reservation.
	// An empty borrowed side points nowhere, neither at the caller's
	// memory nor past the end of the arena.
	nb := nt>>kindShift&3 == uint64(KindBorrowed)
	vb := vt>>kindShift&3 == uint64(KindBorrowed)
	if nb || vb {
		var nn, vn int
		if nb {
			nn = int(nt & lenMask)
			nt ^= tagBorrowed ^ tagOwned // the length and the mark stay
		}
		if vb {
			vn = int(vt & lenMask)
			vt ^= tagBorrowed ^ tagOwned
		}
		var dst []byte
		if nn+vn != 0 {
			m := len(b.arena)
			if cap(b.arena)-m < nn+vn {
				b.growArena(nn + vn)
				m = 0
			}
			b.arena = b.arena[:m+nn+vn]
			dst = b.arena[m:]
		}
		if nb {
			var d []byte
			if nn != 0 {
				d = dst[:nn]
				copy(d, f.Name.bytes())
			}
			f.Name = bytesStr(d, nt)
		}
		if vb {
			var d []byte
			if vn != 0 {
				d = dst[nn:]
				copy(d, f.Value.bytes())
			}
			f.Value = bytesStr(d, vt)
		}
	}
	b.fields = b.fields[:n+1]
	b.fields[n] = f
}

// growArena replaces the arena with a fresh array with room for at least
// n bytes. Earlier fields keep the old one alive, so the batch pins it.
func (b *Batch) growArena(n int) {
	b.arena = make([]byte, 0, max(2*cap(b.arena), n, 256))
	b.pins = true
}
