//go:build !purego

package mdelem

import (
	"unsafe"

	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/staticdata"
)

// Append adds f at the end of the batch. It copies borrowed bytes into the
// arena, adopts owned bytes, and takes an atom's key ID as it is. A name
// given as bytes is looked up in the static tier (a perfect hash, no
// allocation) and, when found, replaced by its atom so that later
// comparisons are pointer compares.
//
// A field with a side that holds no string (Str.IsValid: the zero Str, a
// nil atom, the zero intern.Handle) is not appended: Err reports it, and
// the batch is otherwise unchanged. An atom is stored with the kind of the
// atom itself, not the one its constructor gave it (see Str.Kind): a
// record outside the static tier given as Static is interned, and the
// batch pins it like any handle.
//
// SAFETY: the fast paths write field n only after the test n <
// cap(b.fields), and copy a borrowed value of vn bytes from its Str (vn
// bytes at its p, see Str.bytes) to arena space reserved only after
// cap(b.arena)-len(b.arena) > vn; each word copy below moves bytes
// [0, vn) of both in pieces that start at or after 0 and end at or before
// vn, for the range of vn its case tests. Guarded by TestAppendAtGuard,
// TestAppendTwins, FuzzAppendTwins and TestBatchCopiesEveryLength.
func (b *Batch) Append(f Field) {
	n := len(b.fields)
	nt, vt := f.Name.tag, f.Value.tag
	// The fast path takes an atom name, and a value that is an atom or
	// bytes that need no new arena. A name given as bytes goes to
	// appendBytesName. Everything else goes to appendSafe, before the
	// batch is touched: a full batch, a name or value that holds no string
	// (or a name of empty bytes with no pointer), and borrowed bytes the
	// arena has no room for. The fast paths never reject a field: only
	// appendSafe decides that.
	if n >= cap(b.fields) || f.Name.p == nil {
		b.appendSafe(f)
		return
	}
	if nt&tagBytes != 0 {
		b.appendBytesName(f)
		return
	}
	a := (*staticdata.Atom)(f.Name.p)
	if vt&tagBytes == 0 {
		v := (*staticdata.Atom)(f.Value.p)
		if v == nil { // a value that holds no string
			b.appendSafe(f)
			return
		}
		b.index(n, a, nt|vt|atomPins(v), len(a.String())+len(v.String()))
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
		b.appendSafe(f)
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
// room for the field. A name that no atom could be, the usual custom name,
// is kept as bytes here, with no call but memmove's; a name that may be an
// atom goes to appendLookup. A value that holds no string, or borrowed
// bytes the arena has no room for, go to appendSafe.
//
// SAFETY: as for Append: field n is below cap(b.fields), the arena space
// is reserved after cap(b.arena)-len(b.arena) > need = the borrowed bytes
// of both sides, and the name's nn bytes go to its start, the value's vn
// bytes right after them. Guarded by TestAppendAtGuard and TestAppendTwins.
func (b *Batch) appendBytesName(f Field) {
	n := len(b.fields)
	nt, vt := f.Name.tag, f.Value.tag
	nn := int(nt & lenMask)
	if tier.MayBeAtom(stringAt(f.Name.p, nn)) {
		b.appendLookup(f)
		return
	}
	// need counts the borrowed bytes, which the arena takes.
	var vn, need int
	if vt&tagBytes == 0 {
		v := (*staticdata.Atom)(f.Value.p)
		if v == nil { // a value that holds no string
			b.appendSafe(f)
			return
		}
		vt |= atomPins(v)
		vn = len(v.String())
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
		b.appendSafe(f)
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
// atom. When it is one (staticAtom, the lookup appendSafe makes too), the
// field goes back to Append with the atom for a name, where the fast path
// takes it; when it is not, to appendSafe.
func (b *Batch) appendLookup(f Field) {
	if a := staticAtom(f.Name.bytes()); a != nil {
		b.Append(staticNamed(f, a))
		return
	}
	b.appendSafe(f)
}

// atomPins returns pinBit for a, the atom of a value, when it is outside
// the static tier, whatever its Str's tag says (appendResolved pins it
// the same way), and 0 otherwise: both fast paths add it to the value's
// tag.
func atomPins(a *staticdata.Atom) uint64 {
	if tier.ID((*tier.Atom)(a)) == tier.NotStatic {
		return pinBit
	}
	return 0
}

// index does Append's bookkeeping for field n, whose name is the atom a:
// it sets pins when tags (the two tags or'ed) has pinBit or a is outside
// the static tier, fills a's slot if it is the first field with a's key,
// and adds size, the field's name and value lengths, to the batch's size.
func (b *Batch) index(n int, a *staticdata.Atom, tags uint64, size int) {
	// Store pins only when it changes: most fields pin nothing, and a
	// read-modify-write of it on every field costs more than a branch.
	if tags&pinBit != 0 {
		b.pins = true
	}
	// One unsigned test rules out both KeyUnknown and a key past the
	// slots, which no atom has (Field.Key). Only a name without a key can
	// be outside the static tier, so only such a name, given as Static,
	// is looked at for it.
	if k := uint((*tier.Atom)(a).Key()) - 1; k < tier.NumKeys-1 {
		if s := &b.slots[1:][k]; *s <= b.base {
			*s = b.base + uint64(n) + 1
		}
	} else if tier.ID((*tier.Atom)(a)) == tier.NotStatic {
		b.pins = true
	}
	b.size += size + 32
}

// setLen sets len(b.fields) to n, which must not exceed its capacity,
// without the check that reslicing makes: the compiler does not carry
// Append's test against the capacity past the stores that follow it.
//
// SAFETY: callers have tested n <= cap(b.fields) (Append: len < cap, then
// n = len+1), and sliceHeader is a slice's layout; guarded by
// TestAppendAtGuard, TestAppendTwins and TestBatchModel.
func (b *Batch) setLen(n int) {
	(*sliceHeader)(unsafe.Pointer(&b.fields)).n = n
}

// reserveAt takes the next n bytes of the arena, from m = len(b.arena),
// and returns their address. The caller has checked that they are there,
// so the arena's length is set without the check that reslicing makes.
//
// SAFETY: callers have tested cap(b.arena)-m > n (or >= n), so m+n <=
// cap(b.arena) and the result points inside the arena's array; guarded
// by TestAppendAtGuard and TestAppendTwins.
func (b *Batch) reserveAt(m, n int) unsafe.Pointer {
	(*sliceHeader)(unsafe.Pointer(&b.arena)).n = m + n
	return unsafe.Add(unsafe.Pointer(unsafe.SliceData(b.arena)), m)
}

// at returns the address of field i, which must be below cap(b.fields),
// without a bounds check.
//
// SAFETY: i < cap(b.fields) (callers call it for the n they passed
// setLen, n+1 <= cap), so the address is inside the fields' array;
// guarded by TestAppendAtGuard and TestAppendTwins.
func (b *Batch) at(i int) *Field {
	return (*Field)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b.fields)), uintptr(i)*unsafe.Sizeof(Field{})))
}

// sliceHeader is the layout of a slice.
//
// SAFETY: it matches the runtime's slice header (pointer, len, cap), which
// setLen and reserveAt write the length of; guarded by TestAppendTwins.
type sliceHeader struct {
	p    unsafe.Pointer
	n, c int
}

// copyWords copies the n bytes at src to dst when n is from 8 to 16, as
// two overlapping words, and reports whether it did. Small enough to be
// inlined, it spares short strings a call to memmove. The two must not
// overlap: dst is fresh arena space.
//
// SAFETY: callers pass n bytes at src (a Str's bytes) and n bytes of
// reserved arena at dst; both words lie in [0, n) when 8 <= n <= 16.
// Guarded by TestAppendAtGuard, TestAppendTwins and FuzzAppendTwins.
func copyWords(dst, src unsafe.Pointer, n int) bool {
	if uint(n-8) > 8 {
		return false
	}
	*(*[8]byte)(dst) = *(*[8]byte)(src)
	*(*[8]byte)(unsafe.Add(dst, n-8)) = *(*[8]byte)(unsafe.Add(src, n-8))
	return true
}
