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

// appendHuffmanStringSafe is the bounds-checked twin of AppendHuffmanString,
// with the same output; -tags purego encodes with it.
func appendHuffmanStringSafe(dst []byte, s string) []byte {
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
