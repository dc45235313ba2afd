package intern

import "github.com/metapack/metapack/internal/le"

// equal reports whether s and b hold the same bytes. It is faster than
// s == string(b) for the short strings headers are made of: it compares
// eight bytes at a time without a call into the runtime.
func equal[T string | []byte](s string, b T) bool {
	return len(s) == len(b) && sameBytes(s, b)
}

// sameBytesSafe is sameBytes in bounds-checked Go: equal for s and b of
// the same length. The pure-Go build uses it; in the default build it is
// the reference the differential tests hold sameBytes to.
func sameBytesSafe[T string | []byte](s string, b T) bool {
	n := len(b)
	s = s[:n]
	if uint(n-8) > 8 {
		return sameBytesSlowSafe(s, b)
	}
	return le.Uint64(s) == le.Uint64(b) && le.Uint64(s[n-8:]) == le.Uint64(b[n-8:])
}

// sameBytesSlowSafe is sameBytesSafe for any length.
func sameBytesSlowSafe[T string | []byte](s string, b T) bool {
	n := len(b)
	s = s[:n]
	switch {
	case n > 16:
		// The runtime's comparison, with its vector loads, is the fastest
		// past two words; the conversion in a comparison does not allocate.
		return s == string(b)
	case n >= 8:
		return le.Uint64(s) == le.Uint64(b) && le.Uint64(s[n-8:]) == le.Uint64(b[n-8:])
	case n >= 4:
		return le.Uint32(s) == le.Uint32(b) && le.Uint32(s[n-4:]) == le.Uint32(b[n-4:])
	default:
		for i := 0; i < n; i++ {
			if s[i] != b[i] {
				return false
			}
		}
		return true
	}
}
