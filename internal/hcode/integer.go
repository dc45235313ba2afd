package hcode

import "math/bits"

// IntResult tells how reading an integer went.
type IntResult uint8

// The results of ReadInt.
const (
	IntOK        IntResult = iota
	IntTruncated           // the input ends inside the integer
	IntOverflow            // above the maximum, or more continuation bytes than it needs
)

// MaxInt62 is the largest integer QPACK carries (RFC 9204 §4.1.1 refers to
// RFC 9000's 62-bit integers); ReadInt takes no maximum above it.
const MaxInt62 = 1<<62 - 1

// ReadInt reads an RFC 7541 §5.1 integer with an n-bit prefix (1 to 8)
// from the start of p, and returns the value and how many bytes it took. A
// value above max (at most MaxInt62), or more continuation bytes than max
// needs, is IntOverflow; input that ends inside the integer is
// IntTruncated. A value that fits in the prefix is returned whatever max
// is; bits of p[0] above the prefix are ignored.
func ReadInt(p []byte, n uint, max uint64) (v uint64, size int, res IntResult) {
	if len(p) == 0 {
		return 0, 0, IntTruncated
	}
	mask := uint64(1)<<n - 1
	v = uint64(p[0]) & mask
	if v < mask {
		return v, 1, IntOK
	}
	max = min(max, MaxInt62)
	// The prefix byte and 7 bits a continuation byte: max's length.
	maxBytes := (bits.Len64(max)+6)/7 + 1
	var shift uint
	for i := 1; i < len(p); i++ {
		b := p[i]
		v += uint64(b&0x7f) << shift
		if v > max {
			return 0, 0, IntOverflow
		}
		if b&0x80 == 0 {
			return v, i + 1, IntOK
		}
		shift += 7
		if i+1 >= maxBytes {
			return 0, 0, IntOverflow
		}
	}
	return 0, 0, IntTruncated
}

// AppendInt appends v as an RFC 7541 §5.1 integer with an n-bit prefix (1
// to 8); flags are the bits of the first byte above the prefix.
func AppendInt(dst []byte, n uint, flags byte, v uint64) []byte {
	mask := uint64(1)<<n - 1
	if v < mask {
		return append(dst, flags|byte(v))
	}
	dst = append(dst, flags|byte(mask))
	v -= mask
	for v >= 0x80 {
		dst = append(dst, byte(v)|0x80)
		v >>= 7
	}
	return append(dst, byte(v))
}

// IntLen returns how many bytes AppendInt takes for v with an n-bit prefix.
func IntLen(n uint, v uint64) int {
	mask := uint64(1)<<n - 1
	if v < mask {
		return 1
	}
	l := 2
	for v -= mask; v >= 0x80; v >>= 7 {
		l++
	}
	return l
}
