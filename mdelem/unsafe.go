package mdelem

import "unsafe"

// bytesView returns b's bytes as a string without copying, for lookups that
// neither keep nor modify it.
func bytesView(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// sliceAt returns the n bytes at p as a slice, without the checks that
// unsafe.Slice makes: n is a length the batch already holds, so it is
// neither negative nor past the end of memory.
func sliceAt(p unsafe.Pointer, n int) []byte {
	return *(*[]byte)(unsafe.Pointer(&sliceHeader{p, n, n}))
}

// stringAt is sliceAt for a string, which the checks of unsafe.String
// would also slow down.
func stringAt(p unsafe.Pointer, n int) string {
	return *(*string)(unsafe.Pointer(&stringHeader{p, n}))
}

// stringHeader is the layout of a string.
type stringHeader struct {
	p unsafe.Pointer
	n int
}

// sliceHeader is the layout of a slice.
type sliceHeader struct {
	p    unsafe.Pointer
	n, c int
}

// copyWords copies the n bytes at src to dst when n is from 8 to 16, as
// two overlapping words, and reports whether it did. Small enough to be
// inlined, it spares short strings a call to memmove. The two must not
// overlap: dst is fresh arena space.
func copyWords(dst, src unsafe.Pointer, n int) bool {
	if uint(n-8) > 8 {
		return false
	}
	*(*[8]byte)(dst) = *(*[8]byte)(src)
	*(*[8]byte)(unsafe.Add(dst, n-8)) = *(*[8]byte)(unsafe.Add(src, n-8))
	return true
}
