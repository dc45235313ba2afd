package hpack

// maxInt is the largest integer a representation may carry: 2^32-1. Index,
// length and size values beyond it are errors, never overflow.
const maxInt = 1<<32 - 1

// maxIntBytes bounds an integer's encoding: the prefix byte and at most five
// continuation bytes, enough for any value up to maxInt.
const maxIntBytes = 6

// intResult tells how reading an integer went.
type intResult uint8

const (
	intOK        intResult = iota
	intTruncated           // the input ends inside the integer
	intOverflow            // above maxInt, or too many continuation bytes
)

// readInt reads an RFC 7541 §5.1 integer with an n-bit prefix from the start
// of p. It returns the value and how many bytes it took.
func readInt(p []byte, n uint) (v uint64, size int, res intResult) {
	if len(p) == 0 {
		return 0, 0, intTruncated
	}
	mask := uint64(1)<<n - 1
	v = uint64(p[0]) & mask
	if v < mask {
		return v, 1, intOK
	}
	var shift uint
	for i := 1; i < len(p); i++ {
		b := p[i]
		v += uint64(b&0x7f) << shift
		if v > maxInt {
			return 0, 0, intOverflow
		}
		if b&0x80 == 0 {
			return v, i + 1, intOK
		}
		shift += 7
		if i+1 >= maxIntBytes {
			return 0, 0, intOverflow
		}
	}
	return 0, 0, intTruncated
}

// appendInt appends v as an RFC 7541 §5.1 integer with an n-bit prefix; the
// bits of first above the prefix are kept (they carry the representation
// type).
func appendInt(dst []byte, first byte, n uint, v uint64) []byte {
	mask := uint64(1)<<n - 1
	if v < mask {
		return append(dst, first|byte(v))
	}
	dst = append(dst, first|byte(mask))
	v -= mask
	for v >= 0x80 {
		dst = append(dst, byte(v)|0x80)
		v >>= 7
	}
	return append(dst, byte(v))
}
