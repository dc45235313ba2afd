//go:build !purego

package mdelem

import "unsafe"

// BorrowString returns a Borrowed view of s without copying. The batch
// copies it on Append, so s needs to live only until then.
func BorrowString(s string) Borrowed {
	// SAFETY: stringBytes's view of s is only read: Append copies Borrowed
	// bytes into its arena, and Str.UnsafeBytes documents that its result
	// must not be modified. Guarded by TestStrAtGuard and TestAppendAtGuard.
	return Borrowed(stringBytes(s))
}

// From builds a field from a name and a value of any storage kind. It is
// small enough to be inlined, and where it is, Go resolves the kinds at
// compile time, so each call site does only the work its kinds need. A
// Borrowed side still points at the caller's bytes: Batch.Append copies it.
// A nil Static or the zero Interned gives a side that holds no string,
// which Batch.Append rejects (see Str.IsValid).
func From[K, V Source](name K, value V) Field {
	// Stored into a zeroed argWords, an atom kind leaves its pointer in p
	// and 0 in n; a slice fills all three words. Worked out inline so that
	// From inlines and its switches fold: a slice's size gives tagOwned,
	// and tagInterned flipped in makes an atom interned, or owned bytes
	// borrowed without pinBit.
	//
	// SAFETY: argWords is three words, the size of the largest Source (a
	// slice header), and its first word is a pointer, where every Source
	// keeps its one pointer, so storing a K or a V into it keeps the GC's
	// view of the pointer and writes inside w; p and n are then a slice's
	// data and length, or an atom and 0. Guarded by TestFromKinds,
	// TestFromIgnoresCapacity, TestFromTwins (against fromSafe, the
	// purego twin) and TestAppendTwins.
	var w struct{ n, v argWords }
	*(*K)(unsafe.Pointer(&w.n)) = name
	ns := Str{w.n.p, uint64(w.n.n)}
	*(*V)(unsafe.Pointer(&w.v)) = value
	nt := uint64(unsafe.Sizeof(name)/unsafe.Sizeof([]byte(nil))) * tagOwned
	vt := uint64(unsafe.Sizeof(value)/unsafe.Sizeof([]byte(nil))) * tagOwned
	switch any((*K)(nil)).(type) {
	case *Interned, *Borrowed: // the odd kinds
		nt ^= tagInterned
	}
	switch any((*V)(nil)).(type) {
	case *Interned, *Borrowed:
		vt ^= tagInterned
	}
	ns.tag |= nt
	return Field{Name: ns, Value: Str{w.v.p, uint64(w.v.n) | vt}}
}

// StrOf returns one side of a field, of any storage kind, as From would
// build it: for decoders and tables that make a name and a value at
// different times. A nil Static or the zero Interned gives a Str that
// holds no string, which Batch.Append rejects.
func StrOf[S Source](s S) Str {
	// SAFETY: as for From: argWords is as large as the largest Source, a
	// slice header, and its first word is a pointer, where every Source
	// keeps its one pointer, so storing s into it writes inside w and
	// keeps the GC's view of the pointer; p and n then read back an atom
	// and 0, or a slice's data and length. Guarded by TestStrOfKinds
	// (against the pure-Go twin), TestFromKinds and TestStrAtGuard.
	var w argWords
	*(*S)(unsafe.Pointer(&w)) = s
	t := uint64(unsafe.Sizeof(s)/unsafe.Sizeof([]byte(nil))) * tagOwned
	switch any((*S)(nil)).(type) {
	case *Interned, *Borrowed:
		t ^= tagInterned
	}
	return Str{w.p, uint64(w.n) | t}
}

// argWords has room for any Source: a slice header, or an atom pointer
// followed by two zero words.
//
// SAFETY: its first word is a pointer, as in every Source, so the garbage
// collector sees the pointer From stores through *K or *V; both stores
// fit, as no Source is larger than a slice header. Guarded by
// TestFromKinds, TestFromIgnoresCapacity and TestFromDoesNotAllocate.
type argWords struct {
	p unsafe.Pointer
	// n is a slice's length, or 0 after an atom pointer. It is a uint, as
	// a slice's length is: where int is 32 bits, a uint64 here would take
	// in the capacity too.
	n    uint
	_cap uint
}
