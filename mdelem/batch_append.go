package mdelem

import (
	"slices"

	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/staticdata"
)

// staticNamed returns f with its name, given as bytes, replaced by a, the
// static atom that spells it. The never-index mark lives in the name's
// tag: it is kept.
func staticNamed(f Field, a *staticdata.Atom) Field {
	f.Name = atomStr(a, tagStatic|f.Name.tag&neverIndexBit)
	return f
}

// pinsAtom reports whether the atom side s, which holds a string, pins
// memory the batch does not own: whether its atom is outside the static
// tier, whatever its tag says (Static given a record of package intern).
func pinsAtom(s Str) bool {
	return s.tag&tagBytes == 0 && tier.ID((*tier.Atom)(s.atomRaw())) == tier.NotStatic
}

// appendSafe is Append in plain bounds-checked Go, with the same results:
// the same bytes, kinds, marks, size, slots, pins and Err. Under purego,
// Append is appendSafe. In the default build it is Append's twin, which
// TestAppendTwins compares it with, and also where Append sends every
// field its fast paths do not take.
//
// It is the one place that decides whether a field is valid: a field with
// a side that holds no string is rejected here, and only here. Append's
// fast paths take nothing but fields whose sides both hold a string (an
// atom pointer that is not nil, or bytes), and leave everything else to
// appendSafe. A name given as bytes that spells a static atom is resolved
// to it (staticAtom, the lookup both paths make), and the rest is
// appendResolved's.
func (b *Batch) appendSafe(f Field) {
	if !f.IsValid() {
		b.reject(f)
		return
	}
	if f.Name.tag&tagBytes != 0 {
		if a := staticAtom(f.Name.bytes()); a != nil {
			f = staticNamed(f, a)
		}
	}
	b.appendResolved(f)
}

// appendResolved appends f, which is valid and whose name is an atom or
// bytes that spell no atom, growing the fields and the arena as it must.
// It copies borrowed bytes into the arena, after which they are owned.
func (b *Batch) appendResolved(f Field) {
	n := len(b.fields)
	if n == cap(b.fields) {
		b.fields = slices.Grow(b.fields, 1)
	}
	nt, vt := f.Name.tag, f.Value.tag
	var a *staticdata.Atom
	if nt&tagBytes == 0 {
		a = f.Name.atomRaw()
	}
	// Bytes copied into the arena pin nothing (growArena sets pins itself
	// when the arena is replaced); interned atoms and owned bytes do, and
	// so does an atom outside the static tier that was given as Static.
	if (nt|vt)&pinBit != 0 || pinsAtom(f.Name) || pinsAtom(f.Value) {
		b.pins = true
	}
	size := 32
	if a != nil {
		size += len(a.String())
		if k := a.Key(); k != staticdata.KeyUnknown && k < tier.NumKeys && b.slots[k] <= b.base {
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
