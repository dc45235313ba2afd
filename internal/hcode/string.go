package hcode

import (
	"math"
	"slices"
)

// StrResult tells how reading a string literal went.
type StrResult uint8

// The results of ReadString.
const (
	StrOK        StrResult = iota
	StrTruncated           // the input ends inside the literal
	StrOverflow            // the length is IntOverflow for ReadInt
	StrTooLong             // the length is above the caller's limit
)

// ReadString reads the string literal (RFC 7541 §5.2) at the start of p:
// an H bit, the length with an n-bit prefix (1 to 7; RFC 9204 §4.1.2's N
// is n+1) read as ReadInt does up to max, then the octets. It returns
// where they start (0 until the length is read) and end in p, and H. A
// length above limit is StrTooLong at once. When p ends inside the literal,
// end is how long p must be: len(p)+1 inside the length, else the whole.
func ReadString(p []byte, n uint, max uint64, limit int) (start, end int, huff bool, res StrResult) {
	l, start, ires := ReadInt(p, n, max)
	switch {
	case ires == IntTruncated:
		return 0, len(p) + 1, false, StrTruncated
	case ires == IntOverflow:
		return 0, 0, false, StrOverflow
	case limit < 0 || l > uint64(limit):
		return start, int(min(uint64(start)+l, math.MaxInt)), p[0]>>n&1 != 0, StrTooLong
	case l > uint64(len(p)-start):
		return start, int(min(uint64(start)+l, math.MaxInt)), p[0]>>n&1 != 0, StrTruncated
	}
	return start, start + int(l), p[0]>>n&1 != 0, StrOK
}

// ReadShortString reads the string literal at p[pos:] when it is whole and
// its length fits its n-bit prefix and limit, as most do, and is small
// enough for a decoder to inline: it returns the octets, the position after
// them, whether H is set, and ok. When ok is false ReadString says why.
func ReadShortString(p []byte, pos int, n uint, limit int) (raw []byte, end int, huff, ok bool) {
	if uint(pos) < uint(len(p)) {
		c := p[pos]
		mask := 1<<n - 1
		l := int(c) & mask
		end = pos + 1 + l
		if l < mask && l <= limit && end <= len(p) {
			return p[pos+1 : end : end], end, c>>n&1 != 0, true
		}
	}
	return nil, 0, false, false
}

// AppendString appends s as a string literal with an n-bit length prefix
// (1 to 7), flags the bits of the first byte above H. With huffman set, s
// is Huffman-coded when that is shorter.
func AppendString(dst []byte, n uint, flags byte, s string, huffman bool) []byte {
	if !huffman {
		return append(AppendInt(dst, n, flags, uint64(len(s))), s...)
	}
	// Code s after the raw length's prefix, then fix up. AppendEncode
	// measures s first unless it has this much room.
	start := len(dst)
	p := IntLen(n, uint64(len(s)))
	if room := p + MaxBytesPerByte*len(s) + 8; cap(dst)-start < room {
		dst = slices.Grow(dst, room)
	}
	dst = AppendEncode(dst[:start+p], s)
	h := len(dst) - start - p
	if h >= len(s) {
		return append(AppendInt(dst[:start], n, flags, uint64(len(s))), s...)
	}
	if p == 1 { // as most are; so is the Huffman length
		dst[start] = flags | 1<<n | byte(h)
		return dst
	}
	if q := IntLen(n, uint64(h)); q < p {
		// The Huffman length needs a shorter prefix than the raw one.
		copy(dst[start+q:], dst[start+p:])
		p = q
	}
	// Rewrite the prefix in place, within cap(dst).
	AppendInt(dst[:start], n, flags|1<<n, uint64(h))
	return dst[:start+p+h]
}
