package tabledef

// PairHash mixes the hashes of a name and a value into the hash of a field.
func PairHash(name, value uint64) uint64 {
	h := name ^ (value * 0x9E3779B97F4A7C15)
	h ^= h >> 29
	return h * 0xBF58476D1CE4E5B9
}

// PerfectHash is the hash whose multipliers m0 to m4 the generator searches
// for, so that the static tier's non-empty strings land in distinct slots of
// a table of 1<<bits. It reads the length and four bytes of s, which must
// not be empty:
//
//	((len*m0 + s[0]*m1 + s[len-1]*m2 + s[len/2+len/4]*m3 + s[len/4]*m4) mod 2^32) >> (32-bits)
//
// bits must be 1 to 32.
func PerfectHash[T ~string | ~[]byte](s T, bits uint, m0, m1, m2, m3, m4 uint32) uint32 {
	n := len(s)
	h := uint32(n)*m0 + uint32(s[0])*m1 + uint32(s[n-1])*m2 + uint32(s[n/2+n/4])*m3 + uint32(s[n/4])*m4
	return h >> (32 - bits)
}
