package hpack

import (
	"encoding/binary"
	"slices"

	"github.com/metapack/metapack/staticdata"
)

// HuffmanEncodeLength returns the number of bytes that the Huffman encoding
// of s takes, padding included.
func HuffmanEncodeLength(s string) uint64 {
	var bits uint64
	for i := 0; i < len(s); i++ {
		bits += uint64(staticdata.HuffmanCodeLen[s[i]])
	}
	return (bits + 7) / 8
}

// maxHuffmanBytesPerByte bounds the encoded size: the longest code of a
// byte is 30 bits, under 4 bytes.
const maxHuffmanBytesPerByte = 4

// AppendHuffmanString appends the Huffman encoding of s to dst, padded with
// the high bits of EOS as RFC 7541 §5.2 requires, and returns the extended
// buffer. It does not allocate when dst has room for 4*len(s)+8 bytes, or
// for the exact encoded length plus 8.
func AppendHuffmanString(dst []byte, s string) []byte {
	if len(s) == 0 {
		return dst
	}
	start := len(dst)
	// The loop below stores 8 bytes at a time; it needs 8 bytes of slack
	// beyond the encoded length. Only measure s when a rough bound does not fit.
	if cap(dst)-start < maxHuffmanBytesPerByte*len(s)+8 {
		dst = slices.Grow(dst, int(HuffmanEncodeLength(s))+8)
	}
	out := dst[start:cap(dst)]
	table := &staticdata.HuffmanEncodeTable
	var acc uint64 // pending bits, left-aligned
	var nb uint    // number of pending bits, below 8 after each flush
	o := 0
	i := 0
	// Four bytes at a time while their codes fit in the 56 bits above the
	// at most 7 pending ones (always for text: codes of 14 bits or less);
	// a group that does not fit goes one byte at a time. The flush is
	// branch-free: store all 8 bytes, keep only whole bytes.
	for ; i+4 <= len(s); i += 4 {
		e0, e1, e2, e3 := table[s[i]], table[s[i+1]], table[s[i+2]], table[s[i+3]]
		p1 := nb + uint(e0&0xff)
		p2 := p1 + uint(e1&0xff)
		p3 := p2 + uint(e2&0xff)
		end := p3 + uint(e3&0xff)
		if end > 63 {
			o, acc, nb = putCode(out, o, acc, nb, e0)
			o, acc, nb = putCode(out, o, acc, nb, e1)
			o, acc, nb = putCode(out, o, acc, nb, e2)
			o, acc, nb = putCode(out, o, acc, nb, e3)
			continue
		}
		// Every shift count is below 64 here; the masks tell the compiler
		// so, and it drops its oversized-shift handling.
		acc |= (e0&^0xff)>>(nb&63) | (e1&^0xff)>>(p1&63) | (e2&^0xff)>>(p2&63) | (e3&^0xff)>>(p3&63)
		binary.BigEndian.PutUint64(out[o:], acc)
		k := end >> 3
		o += int(k)
		acc <<= (k * 8) & 63
		nb = end & 7
	}
	for ; i < len(s); i++ {
		o, acc, nb = putCode(out, o, acc, nb, table[s[i]])
	}
	if nb > 0 {
		// Pad with ones, the high bits of EOS.
		out[o] = byte(acc>>56) | byte(0xff>>nb)
		o++
	}
	return dst[:start+o]
}

// putCode adds one table entry's code to the pending bits and flushes the
// whole bytes: it stores all 8 bytes of acc at out[o:] and advances o past
// the complete ones. nb is below 8 before and after; nb+30 bits always fit.
func putCode(out []byte, o int, acc uint64, nb uint, e uint64) (int, uint64, uint) {
	acc |= (e &^ 0xff) >> (nb & 63) // shift hint: nb < 8
	nb += uint(e & 0xff)
	binary.BigEndian.PutUint64(out[o:], acc)
	k := nb >> 3
	return o + int(k), acc << ((k * 8) & 63), nb & 7 // shift hint: k*8 <= 32
}
