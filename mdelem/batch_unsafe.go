//go:build !purego

package mdelem

import (
	"unsafe"

	"github.com/metapack/metapack/internal/tabledef"
	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/staticdata"
)

// Append adds f at the end of the batch, copying borrowed bytes into the
// arena. A name given as bytes that spells a well-known string becomes its
// static atom, so that Get finds it. A field with a side that holds no
// string (see Str.IsValid) is not appended: Err reports it.
func (b *Batch) Append(f Field) {
	// A second path, for a name that is an atom and a value that needs
	// no new arena, with room for the field: append alone measured 10%
	// more instructions decoding the grpc corpus. Everything else,
	// including every field to reject, goes to append.
	//
	// SAFETY: field n is written only after n < cap(b.fields), through
	// setLen and at; a borrowed value of vn bytes (vn bytes at its p, see
	// Str.bytes) goes to arena space reserved only after
	// cap(b.arena)-len(b.arena) >= vn, and each move below lies in [0, vn)
	// for the range of vn its case tests. Guarded by TestAppendAtGuard,
	// TestAppendTwins, FuzzAppendTwins and TestBatchCopiesEveryLength.
	n := len(b.fields)
	nt, vt := f.Name.tag, f.Value.tag
	if n >= cap(b.fields) || f.Name.p == nil {
		b.append(f)
		return
	}
	if nt&tagBytes != 0 {
		b.appendBytesName(f)
		return
	}
	a := (*staticdata.Atom)(f.Name.p)
	if vt&tagBytes == 0 {
		v := (*staticdata.Atom)(f.Value.p)
		if v == nil {
			b.append(f)
			return
		}
		b.index(n, a, nt|vt|atomPins(v), len(a.String())+len(v.String()))
		b.setLen(n + 1)
		*b.at(n) = f
		return
	}
	vn := int(vt & lenMask)
	if vt&kindMask != tagBorrowed {
		b.index(n, a, nt|vt, len(a.String())+vn)
		b.setLen(n + 1)
		*b.at(n) = f
		return
	}
	m := len(b.arena)
	if cap(b.arena)-m < vn || vn == 0 {
		b.append(f)
		return
	}
	b.index(n, a, nt, len(a.String())+vn)
	b.setLen(n + 1)
	(*sliceHeader)(unsafe.Pointer(&b.arena)).n = m + vn
	dst := unsafe.Add(unsafe.Pointer(unsafe.SliceData(b.arena)), m)
	src := f.Value.p
	f.Value = Str{p: dst, tag: vt ^ (tagBorrowed ^ tagOwned)}
	*b.at(n) = f
	copyBytes(dst, src, vn)
}

// copyBytes copies the n bytes at src to dst, which do not overlap. Up to
// 32 bytes, two overlapping moves of a fixed size, or three single bytes,
// cost less than memmove's dispatch on the length.
//
// SAFETY: callers pass n bytes at src (a Str's, see Str.bytes) and n bytes
// of reserved arena at dst; each move lies in [0, n) for the range of n
// its case tests. Guarded by TestAppendAtGuard, TestAppendTwins,
// FuzzAppendTwins and TestBatchCopiesEveryLength.
func copyBytes(dst, src unsafe.Pointer, n int) {
	if uint(n-8) <= 8 {
		*(*[8]byte)(dst) = *(*[8]byte)(src)
		*(*[8]byte)(unsafe.Add(dst, n-8)) = *(*[8]byte)(unsafe.Add(src, n-8))
	} else if uint(n-17) <= 15 {
		*(*[16]byte)(dst) = *(*[16]byte)(src)
		*(*[16]byte)(unsafe.Add(dst, n-16)) = *(*[16]byte)(unsafe.Add(src, n-16))
	} else {
		copy(sliceAt(dst, n), sliceAt(src, n))
	}
}

// appendBytesName is Append's fast path for a name given as bytes, with
// room for the field: append alone measured 2.5% more instructions
// decoding the grpc corpus. A name that may be an atom, a value that holds
// no string, and borrowed bytes the arena has no room for go to append.
//
// SAFETY: as for Append: field n is below cap(b.fields), the arena space
// is reserved after cap(b.arena)-len(b.arena) > need, the borrowed bytes
// of both sides, and the name's nn bytes go to its start, the value's vn
// bytes right after them. Guarded by TestAppendAtGuard and
// TestAppendTwins.
func (b *Batch) appendBytesName(f Field) {
	n := len(b.fields)
	nt, vt := f.Name.tag, f.Value.tag
	nn := int(nt & lenMask)
	if tier.MayBeAtom(stringAt(f.Name.p, nn)) {
		b.append(f)
		return
	}
	var vn, need int // need counts the borrowed bytes
	if vt&tagBytes == 0 {
		v := (*staticdata.Atom)(f.Value.p)
		if v == nil {
			b.append(f)
			return
		}
		vt |= atomPins(v)
		vn = len(v.String())
	} else if vn = int(vt & lenMask); vt&kindMask == tagBorrowed {
		need = vn
	}
	nb := nt&kindMask == tagBorrowed
	if nb {
		need += nn
	}
	// A byte of the arena stays spare, so that no copy, even an empty
	// one, is put at its end.
	m := len(b.arena)
	if cap(b.arena)-m <= need {
		b.append(f)
		return
	}
	if (nt|vt)&pinBit != 0 {
		b.pins = true
	}
	b.size += nn + vn + tabledef.FieldOverhead
	b.setLen(n + 1)
	(*sliceHeader)(unsafe.Pointer(&b.arena)).n = m + need
	dst := unsafe.Add(unsafe.Pointer(unsafe.SliceData(b.arena)), m)
	ns, vs := f.Name.p, f.Value.p
	if nb {
		f.Name.p = dst
		f.Name.tag ^= tagBorrowed ^ tagOwned // the length and the mark stay
		dst = unsafe.Add(dst, nn)
	}
	vb := vt&kindMask == tagBorrowed
	if vb {
		f.Value.p = dst
		f.Value.tag ^= tagBorrowed ^ tagOwned
	}
	*b.at(n) = f
	if nb {
		copyBytes(f.Name.p, ns, nn)
	}
	if vb {
		copyBytes(dst, vs, vn)
	}
}

// setLen sets len(b.fields) to n, which the caller has checked is at most
// its capacity, without the check that reslicing makes.
//
// SAFETY: Append calls it with n = len+1 after testing len < cap, and
// sliceHeader is a slice's layout. Guarded by TestAppendAtGuard,
// TestAppendTwins and TestBatchModel.
func (b *Batch) setLen(n int) { (*sliceHeader)(unsafe.Pointer(&b.fields)).n = n }

// at returns the address of field i, below cap(b.fields), without a bounds
// check.
//
// SAFETY: Append calls it for the n it passed setLen (n+1 <= cap), so the
// address is inside the fields' array. Guarded by TestAppendAtGuard and
// TestAppendTwins.
func (b *Batch) at(i int) *Field {
	return (*Field)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b.fields)), uintptr(i)*unsafe.Sizeof(Field{})))
}

// sliceHeader is the runtime's layout of a slice.
//
// SAFETY: it matches the runtime's slice header (pointer, len, cap), of
// which setLen and Append write only the length. Guarded by
// TestAppendTwins.
type sliceHeader struct {
	p    unsafe.Pointer
	n, c int
}
