// Package le reads little-endian words from strings and byte slices alike,
// with no unsafe code: the compiler merges the byte loads into one
// unaligned load where the CPU allows it (amd64, arm64). The codec's
// packages use it for word-at-a-time compares, hashes and byte tests.
package le

// Uint64 returns the first 8 bytes of b as a little-endian word. b must
// have 8 bytes or more; the first index checks that once, for all eight.
func Uint64[T string | []byte](b T) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// Uint32 returns the first 4 bytes of b as a little-endian word. b must
// have 4 bytes or more.
func Uint32[T string | []byte](b T) uint32 {
	_ = b[3]
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}
