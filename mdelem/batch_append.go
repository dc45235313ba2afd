package mdelem

import (
	"slices"
	"unsafe"

	"github.com/metapack/metapack/staticdata"
)

// Append adds f at the end of the batch. It copies borrowed bytes into the
// arena, adopts owned bytes, and takes an atom's key ID as it is. A name
// given as bytes is looked up in the static tier (a perfect hash, no
// allocation) and, when found, replaced by its atom so that later
// comparisons are pointer compares.
func (b *Batch) Append(f Field) {
	n := len(b.fields)
	nt, vt := f.Name.tag, f.Value.tag
	// The fast path takes an atom name, and a value that is an atom or
	// bytes that need no new arena. A name given as bytes goes to
	// appendBytesName; everything else that may call anything but memmove
	// goes to appendSlow, before the batch is touched.
	if n >= cap(b.fields) || f.Name.p == nil {
		b.appendSlow(f)
		return
	}
	if nt&tagBytes != 0 {
		b.appendBytesName(f)
		return
	}
	a := (*staticdata.Atom)(f.Name.p)
	if vt&tagBytes == 0 {
		if f.Value.p == nil { // the zero Str
			b.appendSlow(f)
			return
		}
		b.index(n, a, nt|vt, len(a.String())+len((*staticdata.Atom)(f.Value.p).String()))
		b.setLen(n + 1)
		*b.at(n) = f
		return
	}
	vn := int(vt & lenMask)
	if vt&(1<<kindShift) == 0 { // owned
		b.index(n, a, nt|vt, len(a.String())+vn)
		b.setLen(n + 1)
		*b.at(n) = f
		return
	}
	// Borrowed: copy it into the arena, after which it belongs to the
	// batch, so it is owned. The value must leave a byte of the arena
	// spare, so that even an empty one is not copied to the arena's end,
	// which would point past it.
	m := len(b.arena)
	if cap(b.arena)-m <= vn {
		b.appendSlow(f)
		return
	}
	b.index(n, a, nt, len(a.String())+vn)
	b.setLen(n + 1)
	dst := b.reserveAt(m, vn)
	src := f.Value.p
	f.Value = Str{p: dst, tag: uint64(vn) | tagOwned}
	// The field is stored first and the copy comes last, so that nothing
	// is live across its call to memmove.
	*b.at(n) = f
	// Up to 32 bytes, the copy moves two or four overlapping words, or
	// three single bytes, which is shorter than memmove's own dispatch on
	// the length. Borrowed bytes never overlap the arena's fresh space.
	switch {
	case copyWords(dst, src, vn):
	case uint(vn-17) <= 15:
		*(*[16]byte)(dst) = *(*[16]byte)(src)
		*(*[16]byte)(unsafe.Add(dst, vn-16)) = *(*[16]byte)(unsafe.Add(src, vn-16))
	case uint(vn-4) <= 3:
		*(*[4]byte)(dst) = *(*[4]byte)(src)
		*(*[4]byte)(unsafe.Add(dst, vn-4)) = *(*[4]byte)(unsafe.Add(src, vn-4))
	case uint(vn-1) <= 2: // the first, middle and last bytes: all of them
		*(*byte)(dst) = *(*byte)(src)
		*(*byte)(unsafe.Add(dst, vn/2)) = *(*byte)(unsafe.Add(src, vn/2))
		*(*byte)(unsafe.Add(dst, vn-1)) = *(*byte)(unsafe.Add(src, vn-1))
	case vn > 32:
		copy(sliceAt(dst, vn), sliceAt(src, vn))
	}
}

// appendBytesName is Append for a name given as bytes, when the batch has
// room for the field. A name that no atom could be, the usual custom
// name, is kept as bytes here, with no call but memmove's; a name that may
// be an atom goes to appendLookup, and a value that is the zero Str or
// borrowed bytes the arena has no room for to appendSlow.
func (b *Batch) appendBytesName(f Field) {
	n := len(b.fields)
	nt, vt := f.Name.tag, f.Value.tag
	nn := int(nt & lenMask)
	if staticdata.MayBeAtom(stringAt(f.Name.p, nn)) {
		b.appendLookup(f)
		return
	}
	// need counts the borrowed bytes, which the arena takes.
	var vn, need int
	if vt&tagBytes == 0 {
		if f.Value.p == nil {
			b.appendSlow(f)
			return
		}
		vn = len((*staticdata.Atom)(f.Value.p).String())
	} else if vn = int(vt & lenMask); vt&(1<<kindShift) != 0 {
		need = vn
	}
	nb := nt&(1<<kindShift) != 0 // the name is borrowed, not owned
	if nb {
		need += nn
	}
	// As in Append, a byte of the arena stays spare, so that no copy,
	// even an empty one, is put at its end.
	m := len(b.arena)
	if cap(b.arena)-m <= need {
		b.appendSlow(f)
		return
	}
	if (nt|vt)&pinBit != 0 {
		b.pins = true
	}
	b.size += nn + vn + 32
	b.setLen(n + 1)
	dst := b.reserveAt(m, need)
	ns, vs := f.Name.p, f.Value.p
	if nb {
		f.Name.p = dst
		f.Name.tag ^= tagBorrowed ^ tagOwned // the length and the mark stay
		dst = unsafe.Add(dst, nn)
	}
	vb := vt>>kindShift&3 == uint64(KindBorrowed)
	if vb {
		f.Value.p = dst
		f.Value.tag ^= tagBorrowed ^ tagOwned
	}
	*b.at(n) = f
	if nb && !copyWords(f.Name.p, ns, nn) {
		copy(sliceAt(f.Name.p, nn), sliceAt(ns, nn))
	}
	if vb && !copyWords(dst, vs, vn) {
		copy(sliceAt(dst, vn), sliceAt(vs, vn))
	}
}

// appendLookup is Append for a name given as bytes that may be a static
// atom. When it is, the field goes back to Append with the atom for a
// name; when it is not, to appendResolved, with no second lookup.
func (b *Batch) appendLookup(f Field) {
	if g, ok := withStaticName(f, stringAt(f.Name.p, int(f.Name.tag&lenMask))); ok {
		b.Append(g)
		return
	}
	b.appendResolved(f)
}

// withStaticName returns f with its name, given as the bytes s, replaced
// by the static atom that spells it, or ok false when there is none. The
// never-index mark lives in the name's tag: it is kept.
func withStaticName(f Field, s string) (Field, bool) {
	a := staticdata.Lookup(s)
	if a == nil {
		return f, false
	}
	f.Name = Str{p: unsafe.Pointer(a), tag: tagStatic | f.Name.tag&neverIndexBit}
	return f, true
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

// setLen sets len(b.fields) to n, which must not exceed its capacity,
// without the check that reslicing makes: the compiler does not carry
// Append's test against the capacity past the stores that follow it.
func (b *Batch) setLen(n int) {
	(*sliceHeader)(unsafe.Pointer(&b.fields)).n = n
}

// reserveAt takes the next n bytes of the arena, from m = len(b.arena),
// and returns their address. The caller has checked that they are there,
// so the arena's length is set without the check that reslicing makes.
func (b *Batch) reserveAt(m, n int) unsafe.Pointer {
	(*sliceHeader)(unsafe.Pointer(&b.arena)).n = m + n
	return unsafe.Add(unsafe.Pointer(unsafe.SliceData(b.arena)), m)
}

// at returns the address of field i, which must be below cap(b.fields),
// without a bounds check.
func (b *Batch) at(i int) *Field {
	return (*Field)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b.fields)), uintptr(i)*unsafe.Sizeof(Field{})))
}

// appendSlow is Append for what its fast paths leave: a full batch, a
// name or value that is the zero Str, borrowed bytes the arena has no room
// for. A name given as bytes that spells a static atom is resolved to it,
// and the field handed back to Append; the rest goes to appendResolved.
func (b *Batch) appendSlow(f Field) {
	if nt := f.Name.tag; nt&tagBytes != 0 {
		if s := unsafe.String((*byte)(f.Name.p), int(nt&lenMask)); staticdata.MayBeAtom(s) {
			if g, ok := withStaticName(f, s); ok {
				// With an atom for a name, the field is one for Append's
				// fast path, which comes back here only for what it does
				// not take, and then with no name to look up.
				b.Append(g)
				return
			}
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
		a = (*staticdata.Atom)(f.Name.p) // nil for the zero Str
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
	} else if f.Value.p != nil {
		size += len((*staticdata.Atom)(f.Value.p).String())
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
		var dst unsafe.Pointer
		if nn+vn != 0 {
			m := len(b.arena)
			if cap(b.arena)-m < nn+vn {
				b.growArena(nn + vn)
				m = 0
			}
			b.arena = b.arena[:m+nn+vn]
			dst = unsafe.Add(unsafe.Pointer(unsafe.SliceData(b.arena)), m)
		}
		if nb {
			if nn != 0 {
				copy(sliceAt(dst, nn), sliceAt(f.Name.p, nn))
				f.Name.p = dst
			} else {
				f.Name.p = nil
			}
		}
		if vb {
			if vn != 0 {
				// Only now is dst+nn inside the arena: the name may end it.
				dst = unsafe.Add(dst, nn)
				copy(sliceAt(dst, vn), sliceAt(f.Value.p, vn))
				f.Value.p = dst
			} else {
				f.Value.p = nil
			}
		}
	}
	f.Name.tag, f.Value.tag = nt, vt
	b.fields = b.fields[:n+1]
	b.fields[n] = f
}

// growArena replaces the arena with a fresh array with room for at least
// n bytes. Earlier fields keep the old one alive, so the batch pins it.
func (b *Batch) growArena(n int) {
	b.arena = make([]byte, 0, max(2*cap(b.arena), n, 256))
	b.pins = true
}
