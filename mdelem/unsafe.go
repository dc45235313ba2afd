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

// sliceHeader is the layout of a slice.
type sliceHeader struct {
	p    unsafe.Pointer
	n, c int
}

