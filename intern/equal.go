package intern

import "unsafe"

// equal reports whether s and b hold the same bytes. It is faster than
// s == string(b) for the short strings headers are made of: it compares
// eight bytes at a time without a call into the runtime.
func equal(s string, b []byte) bool {
	return len(s) == len(b) && sameBytes(s, b)
}

// sameBytes is equal for s and b of the same length. It is inlined, and
// compares 8 to 16 bytes with two loads each.
func sameBytes(s string, b []byte) bool {
	n := len(b)
	p, q := unsafe.Pointer(unsafe.StringData(s)), unsafe.Pointer(unsafe.SliceData(b))
	if uint(n-8) > 8 {
		return sameBytesSlow(p, q, n)
	}
	return *(*uint64)(p) == *(*uint64)(q) &&
		*(*uint64)(unsafe.Add(p, n-8)) == *(*uint64)(unsafe.Add(q, n-8))
}

// sameBytesSlow compares n bytes at p and q.
func sameBytesSlow(p, q unsafe.Pointer, n int) bool {
	switch {
	case n >= 8:
		// Whole words, then the last word, which may overlap the one before.
		for i := 0; i < n-8; i += 8 {
			if *(*uint64)(unsafe.Add(p, i)) != *(*uint64)(unsafe.Add(q, i)) {
				return false
			}
		}
		return *(*uint64)(unsafe.Add(p, n-8)) == *(*uint64)(unsafe.Add(q, n-8))
	case n >= 4:
		return *(*uint32)(p) == *(*uint32)(q) &&
			*(*uint32)(unsafe.Add(p, n-4)) == *(*uint32)(unsafe.Add(q, n-4))
	default:
		for i := 0; i < n; i++ {
			if *(*byte)(unsafe.Add(p, i)) != *(*byte)(unsafe.Add(q, i)) {
				return false
			}
		}
		return true
	}
}
