package hpack

import (
	"encoding/binary"
	"slices"

	"github.com/metapack/metapack/internal/huffdata"
)

// huffmanLen returns the length of s's Huffman coding, padding included.
func huffmanLen(s string) int {
	var bits int
	for i := 0; i < len(s); i++ {
		bits += int(huffdata.HuffmanCodeLen[s[i]])
	}
	return (bits + 7) / 8
}

// maxHuffmanBytesPerByte bounds the encoded size: the longest code of a
// byte is 30 bits, under 4 bytes.
const maxHuffmanBytesPerByte = 4

// AppendHuffmanString appends the Huffman coding of s to dst, padded with
// the high bits of EOS as RFC 7541 §5.2 requires, and returns the extended
// buffer. It does not allocate when dst has room for 4*len(s)+8 bytes, or
// for the exact encoded length plus 8.
func AppendHuffmanString(dst []byte, s string) []byte {
	return appendHuffmanString(dst, s)
}

// appendHuffmanStringSafe is the pure-Go twin of AppendHuffmanString:
// ordinary bounds-checked Go, with the same output. It is compiled into
// every build, so that the differential tests can compare the two, and it
// is AppendHuffmanString itself under the purego build tag.
//
// It appends each byte's code to the low bits of x and writes the top 32 of
// the n pending bits whenever there are 32: n stays under 32 between bytes,
// and a code is at most 30 bits, so n+len < 64.
func appendHuffmanStringSafe(dst []byte, s string) []byte {
	// Grow once, and only when the encoding may not fit: the same
	// allocation contract as AppendHuffmanString's.
	if room := cap(dst) - len(dst); room < maxHuffmanBytesPerByte*len(s) {
		if n := huffmanLen(s); room < n {
			dst = slices.Grow(dst, n)
		}
	}
	t := &huffdata.HuffmanEncodeTables
	var x uint64 // pending output bits: the low n bits of x
	var n uint
	for i := 0; i < len(s); i++ {
		c := s[i]
		x = x<<t.Len[c] | t.Code[c]
		n += uint(t.Len[c])
		if n >= 32 {
			n -= 32
			dst = binary.BigEndian.AppendUint32(dst, uint32(x>>n))
		}
	}
	for n >= 8 {
		n -= 8
		dst = append(dst, byte(x>>n))
	}
	if n > 0 {
		// Pad with ones, the high bits of EOS.
		dst = append(dst, byte(x<<(8-n))|byte(0xff>>n))
	}
	return dst
}
