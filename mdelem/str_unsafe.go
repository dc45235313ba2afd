//go:build !purego

package mdelem

import (
	"unsafe"

	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/staticdata"
)

// Str is a header name or value. The zero Str holds no string: it is
// invalid (IsValid reports false), like the Str of a nil atom or of the
// zero intern.Handle, and Batch.Append rejects a field with one. An empty
// string is a valid Str of empty bytes or of the static atom of "".
//
// In this build a Str and a Field are comparable with ==, which compares
// where the bytes are stored, not the bytes: use Equal for that. Under the
// purego build tag they are not comparable.
type Str struct {
	// SAFETY: p is an unsafe.Pointer so that one word holds either kind
	// of pointer, and the garbage collector sees it as a pointer either
	// way. The tag's kind says which it is, and only the constructors in
	// this file and From set both together: an atom kind with a
	// *staticdata.Atom, a byte kind with the data pointer of a slice whose
	// length the tag records. Guarded by TestFromKinds, TestStrAtGuard,
	// TestAppendTwins and TestBatchModel.
	p   unsafe.Pointer // *staticdata.Atom, or the first byte of the bytes
	tag uint64         // length | kind<<kindShift | neverIndexBit
}

// atomStr returns the Str of the atom a (which may be nil) with the tag of
// an atom kind.
//
// SAFETY: p holds a, and the tag an atom kind (see Str); guarded by
// TestFromKinds and TestAppendTwins.
func atomStr(a *staticdata.Atom, tag uint64) Str {
	return Str{p: unsafe.Pointer(a), tag: tag}
}

// bytesStr returns the Str of b with tag, the tag of a byte kind whose
// length field is len(b).
//
// SAFETY: p is b's data pointer and the tag records len(b), so bytes()
// later rebuilds exactly b[:len(b)]; guarded by TestStrAtGuard and
// TestAppendAtGuard.
func bytesStr(b []byte, tag uint64) Str {
	return Str{p: unsafe.Pointer(unsafe.SliceData(b)), tag: tag}
}

// atomRaw returns p as an atom, for a Str whose tag is of an atom kind.
//
// SAFETY: every Str with an atom kind's tag was made by atomStr (or From,
// which stores an atom pointer the same way), so p is a *staticdata.Atom
// or nil; guarded by TestFromKinds and TestStrEqual.
func (s Str) atomRaw() *staticdata.Atom { return (*staticdata.Atom)(s.p) }

// bytes returns the bytes of a Str of a byte kind (and none for an atom
// kind's, whose length field is 0).
//
// SAFETY: a byte kind's p and length come from one slice (bytesStr, From)
// or from arena space Append reserved for them, so the n bytes at p are
// inside one live allocation; guarded by TestStrAtGuard, TestAppendAtGuard
// and TestAppendTwins.
func (s Str) bytes() []byte { return sliceAt(s.p, s.n()) }

// Atom returns s's atom, or nil when s holds plain bytes.
func (s Str) Atom() *staticdata.Atom {
	// SAFETY: as for atomRaw: a Str whose tag has no bytes bit holds an
	// atom pointer or nil; guarded by TestFromKinds.
	if s.tag&tagBytes == 0 {
		return (*staticdata.Atom)(s.p)
	}
	return nil
}

// UnsafeBytes returns s's bytes without copying: a view of memory that s
// shares with its atom or its batch. Writing to it is never allowed: for
// an atom it is an immutable string's (a write may crash the program),
// and for bytes in a batch it changes the batch's field, and any other
// Str that shares them. For a borrowed or owned Str in a batch the view
// lives until the batch's Reset. Use String for a copy.
func (s Str) UnsafeBytes() []byte {
	// SAFETY: an atom's string is immutable and lives for ever (or as
	// long as the Str pins its atom), and the slice has its length and
	// capacity, so it reaches no further; the caller must not modify it,
	// as documented. Plain bytes as for bytes; guarded by TestStrAtGuard.
	if a := s.Atom(); a != nil {
		return stringBytes(tier.Str(a))
	}
	return s.bytes()
}

// UnsafeString returns s as a string without copying. For owned or borrowed
// bytes the result is valid only while the bytes are (for a batch, until
// Reset).
func (s Str) UnsafeString() string {
	// SAFETY: the n bytes at p are s's (see bytes); the string aliases
	// them, so the caller must neither modify them nor keep the string
	// past their life, as documented; guarded by TestStrAtGuard.
	if a := s.Atom(); a != nil {
		return tier.Str(a)
	}
	return stringAt(s.p, s.n())
}
