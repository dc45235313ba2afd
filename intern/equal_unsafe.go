//go:build !purego

package intern

import (
	"encoding/binary"
	"unsafe"
)

// sameBytes is equal for s and b of the same length. It is small, and
// compares 8 to 16 bytes with two loads each, through unsafe pointers: in
// Go without bounds checks the word loop of longer strings costs about a
// tenth more per lookup.
//
// SAFETY: every load reads within the n = len(b) bytes at p and q, and s
// has n bytes too (callers: equal, which checks the lengths; the tests).
// The loads cover [0, 8) and [n-8, n) for 8 <= n <= 16. Guarded by
// TestEqualAtGuard, TestInternAtGuard and TestEqualTwins.
func sameBytes[T string | []byte](s string, b T) bool {
	n := len(b)
	p, q := unsafe.Pointer(unsafe.StringData(s)), dataOf(&b)
	if uint(n-8) > 8 {
		return sameBytesSlow(p, q, n)
	}
	return load64(p) == load64(q) &&
		load64(unsafe.Add(p, n-8)) == load64(unsafe.Add(q, n-8))
}

// dataOf returns the address of b's bytes.
//
// SAFETY: a string and a slice both begin with the pointer to their bytes
// (the layout of unsafe.String and unsafe.Slice results, which
// TestDataOf checks for both shapes); the result is only read, n bytes
// from it, by sameBytes.
func dataOf[T string | []byte](b *T) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(b))
}

// sameBytesSlow compares n bytes at p and q.
//
// SAFETY: p and q point at n readable bytes each (sameBytes passes its
// operands' data and length). The word loop reads [i, i+8) for i < n-8,
// the last word [n-8, n); the four-byte case [0, 4) and [n-4, n) for
// 4 <= n < 8. Guarded by TestEqualAtGuard and TestEqualTwins.
func sameBytesSlow(p, q unsafe.Pointer, n int) bool {
	switch {
	case n >= 8:
		// Whole words, then the last word, which may overlap the one before.
		for i := 0; i < n-8; i += 8 {
			if load64(unsafe.Add(p, i)) != load64(unsafe.Add(q, i)) {
				return false
			}
		}
		return load64(unsafe.Add(p, n-8)) == load64(unsafe.Add(q, n-8))
	case n >= 4:
		return load32(p) == load32(q) &&
			load32(unsafe.Add(p, n-4)) == load32(unsafe.Add(q, n-4))
	default:
		for i := 0; i < n; i++ {
			if *(*byte)(unsafe.Add(p, i)) != *(*byte)(unsafe.Add(q, i)) {
				return false
			}
		}
		return true
	}
}

// load64 and load32 read a word at p, which need not be aligned. Through
// encoding/binary they are one unaligned load where the CPU allows it
// (amd64, arm64) and byte loads where it does not; the byte order does
// not matter, since both sides of a comparison are read alike.
//
// SAFETY: p points at 8 (load64) or 4 (load32) readable bytes; the callers,
// sameBytes and sameBytesSlow, keep every load inside their operands.
// Guarded by TestEqualAtGuard.
func load64(p unsafe.Pointer) uint64 { return binary.LittleEndian.Uint64((*[8]byte)(p)[:]) }

// SAFETY: as for load64, with 4 bytes; guarded by TestEqualAtGuard.
func load32(p unsafe.Pointer) uint32 { return binary.LittleEndian.Uint32((*[4]byte)(p)[:]) }
