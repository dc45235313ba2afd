package hcode

import (
	"encoding/binary"
	"slices"

	"github.com/metapack/metapack/internal/huffdata"
)

// EncodedLen returns the length of s's Huffman coding, padding included.
func EncodedLen(s string) int {
	var bits int
	for i := 0; i < len(s); i++ {
		bits += int(huffdata.HuffmanCodeLen[s[i]])
	}
	return (bits + 7) / 8
}

// MaxBytesPerByte bounds the encoded size: the longest code of a
// byte is 30 bits, under 4 bytes.
const MaxBytesPerByte = 4

// AppendEncodeSafe is the bounds-checked twin of AppendEncode, with the
// same output; -tags purego encodes with it.
func AppendEncodeSafe(dst []byte, s string) []byte {
	if room := cap(dst) - len(dst); room < MaxBytesPerByte*len(s) {
		if n := EncodedLen(s); room < n {
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
