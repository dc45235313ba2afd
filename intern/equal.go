package intern

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
	return le64(s) == le64(b) && le64(s[n-8:]) == le64(b[n-8:])
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
		return le64(s) == le64(b) && le64(s[n-8:]) == le64(b[n-8:])
	case n >= 4:
		return le32(s) == le32(b) && le32(s[n-4:]) == le32(b[n-4:])
	default:
		for i := 0; i < n; i++ {
			if s[i] != b[i] {
				return false
			}
		}
		return true
	}
}

// le64 and le32 read the first word of b, little-endian. The compiler
// merges the byte loads into one unaligned load where the CPU allows it
// (amd64, arm64); the byte order does not matter, since both sides of a
// comparison are read alike.
func le64[T string | []byte](b T) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

func le32[T string | []byte](b T) uint32 {
	_ = b[3]
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}
