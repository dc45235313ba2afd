package intern

import (
	"encoding/binary"
	"unsafe"
)

// equal reports whether s and b hold the same bytes. It is faster than
// s == string(b) for the short strings headers are made of: it compares
// eight bytes at a time without a call into the runtime.
func equal(s string, b []byte) bool {
	return len(s) == len(b) && sameBytes(s, b)
}

// sameBytes is equal for s and b of the same length. It is small, and
// compares 8 to 16 bytes with two loads each.
func sameBytes(s string, b []byte) bool {
	n := len(b)
	p, q := unsafe.Pointer(unsafe.StringData(s)), unsafe.Pointer(unsafe.SliceData(b))
	if uint(n-8) > 8 {
		return sameBytesSlow(p, q, n)
	}
	return load64(p) == load64(q) &&
		load64(unsafe.Add(p, n-8)) == load64(unsafe.Add(q, n-8))
}

// sameBytesSlow compares n bytes at p and q.
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
func load64(p unsafe.Pointer) uint64 { return binary.LittleEndian.Uint64((*[8]byte)(p)[:]) }

func load32(p unsafe.Pointer) uint32 { return binary.LittleEndian.Uint32((*[4]byte)(p)[:]) }
