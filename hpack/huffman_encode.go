package hpack

import (
	"encoding/binary"
	"slices"
	"unsafe"

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
	// The encoder stores 8 bytes at a time and needs 8 bytes of slack
	// beyond the encoded length. Only measure s when a rough bound does not fit.
	if cap(dst)-start < maxHuffmanBytesPerByte*len(s)+8 {
		dst = slices.Grow(dst, int(HuffmanEncodeLength(s))+8)
	}
	// huffmanEncode writes only to the encoded length plus 8 bytes from
	// out, and the check above leaves that much room after dst[start].
	out := unsafe.Pointer(unsafe.SliceData(dst[start:cap(dst)]))
	end := huffmanEncode(out, s, &staticdata.HuffmanEncodeTables)
	return dst[:start+int(uintptr(end)-uintptr(out))]
}

// How the encoder works
//
// Codes are combined in pairs: the codes of bytes a and b make the value
// code(a)*pow(b) | code(b), code(a) shifted left by len(b) and then code(b),
// up to 60 bits. A multiply rather than a shift: on amd64 v1 a variable
// shift needs its count in CX, and the moves to get it there cost more.
// Text goes eight bytes, four pairs, per step and one store; long codes go
// four bytes, two pairs, per step and two stores.
//
// Output goes out in 8-byte big-endian stores. The bits of the last,
// incomplete output byte are the low n bits of x (n < 8; the bits above them
// are stale). A step appends its codes to x and stores the word that starts
// with those n bits: x*top[k] with k the number of bits to store moves them
// to the top of the word. The output pointer then moves past the complete
// bytes; the next store rewrites the incomplete one, completed. So every
// store starts within the encoded length and ends within the 8 bytes of
// slack after it; bytes past the encoded length hold garbage, which is no
// part of the result.

// pair returns the codes of s[i] and s[i+1] concatenated, and their length,
// at most 60 bits. in is the start of s; the caller makes sure i+1 < len(s).
func pair(t *staticdata.HuffmanEncoder, in unsafe.Pointer, i int) (uint64, uint) {
	a, b := *(*byte)(unsafe.Add(in, i)), *(*byte)(unsafe.Add(in, i+1))
	return t.Code[a]*t.Pow[b] | t.Code[b], uint(t.Len[a] + t.Len[b])
}

// store writes v big-endian to the 8 bytes at p.
func store(p unsafe.Pointer, v uint64) {
	binary.BigEndian.PutUint64((*[8]byte)(p)[:], v)
}

// putCode appends the l-bit code v to the n pending bits in x, stores the
// word that they start at p, and returns the new p, x and n. It needs
// n+l <= 64, which l <= 57 guarantees.
func putCode(t *staticdata.HuffmanEncoder, p unsafe.Pointer, x uint64, n uint, v uint64, l uint) (unsafe.Pointer, uint64, uint) {
	x = x<<(l&63) | v // l&63 == l; the mask drops the oversized-shift code
	k := uint8(n + l) // k == n+l <= 64; uint8 is the bounds hint
	store(p, x*t.Top[k])
	return unsafe.Add(p, t.Bytes[k]), x, uint(k & 7)
}

// putPair is putCode for a pair of codes, up to 60 bits: a pair with a
// 30-bit code goes in two parts.
func putPair(t *staticdata.HuffmanEncoder, p unsafe.Pointer, x uint64, n uint, v uint64, l uint) (unsafe.Pointer, uint64, uint) {
	if l > 57 {
		p, x, n = putCode(t, p, x, n, v>>32, l-32)
		v, l = uint64(uint32(v)), 32
	}
	return putCode(t, p, x, n, v, l)
}

// huffmanEncode writes the Huffman encoding of s, with its padding, from out
// on and returns the end of it. out must have room for the encoded length
// plus 8 bytes.
func huffmanEncode(out unsafe.Pointer, s string, t *staticdata.HuffmanEncoder) unsafe.Pointer {
	_ = *t // one nil check, before the loops
	in := unsafe.Pointer(unsafe.StringData(s))
	p := out     // next output byte; see above for why stores stay in bounds
	var x uint64 // pending output bits: the low n bits of x
	var n uint
	i := 0 // next byte of s
	for i+8 <= len(s) {
		// Text: eight bytes at a time while their codes fit in the 57 bits
		// that at most 7 pending bits leave in a word. The four pairs join
		// in a chain, which keeps few values live. Written out rather than
		// with pair and putCode: this loop is the hottest, and the inlined
		// calls would add a no-op inline mark each.
		for i+8 <= len(s) {
			// Safe reads: i+8 <= len(s).
			c0, c1 := *(*byte)(unsafe.Add(in, i)), *(*byte)(unsafe.Add(in, i+1))
			c2, c3 := *(*byte)(unsafe.Add(in, i+2)), *(*byte)(unsafe.Add(in, i+3))
			l1 := uint(t.Len[c2] + t.Len[c3])
			// Shift masks: hints; a pair is at most 60 bits.
			v := (t.Code[c0]*t.Pow[c1]|t.Code[c1])<<(l1&63) | t.Code[c2]*t.Pow[c3] | t.Code[c3]
			l := uint(t.Len[c0]+t.Len[c1]) + l1
			if l > 57 {
				break
			}
			c4, c5 := *(*byte)(unsafe.Add(in, i+4)), *(*byte)(unsafe.Add(in, i+5))
			l2 := uint(t.Len[c4] + t.Len[c5])
			v = v<<(l2&63) | t.Code[c4]*t.Pow[c5] | t.Code[c5]
			c6, c7 := *(*byte)(unsafe.Add(in, i+6)), *(*byte)(unsafe.Add(in, i+7))
			l3 := uint(t.Len[c6] + t.Len[c7])
			v = v<<(l3&63) | t.Code[c6]*t.Pow[c7] | t.Code[c7]
			l += l2 + l3
			if l > 57 {
				break
			}
			i += 8
			// putCode, written out; the store is in bounds as putCode's is.
			x = x<<(l&63) | v
			k := uint8(n + l)
			binary.BigEndian.PutUint64((*[8]byte)(p)[:], x*t.Top[k])
			p = unsafe.Add(p, t.Bytes[k])
			n = uint(k & 7)
		}
		if i+8 > len(s) {
			break
		}
		// Long codes: four bytes, up to 124 bits with the pending ones, in
		// two words. This runs while 9 more bytes follow the four (q > 0
		// means i+13 <= len(s)): they put at least 45 more bits out, so the
		// encoded length reaches past the first word, and the second word
		// ends within the 8 bytes of slack.
		for q := (len(s) - 9 - i) / 4; q > 0; q-- {
			// Safe reads: i+13 <= len(s).
			c0, c1 := *(*byte)(unsafe.Add(in, i)), *(*byte)(unsafe.Add(in, i+1))
			l1 := uint(t.Len[c0] + t.Len[c1])
			if l1 > 57 {
				break
			}
			c2, c3 := *(*byte)(unsafe.Add(in, i+2)), *(*byte)(unsafe.Add(in, i+3))
			v1 := t.Code[c0]*t.Pow[c1] | t.Code[c1]
			v2 := t.Code[c2]*t.Pow[c3] | t.Code[c3]
			l2 := uint(t.Len[c2] + t.Len[c3])
			i += 4
			// The pending bits and v1 are the first a bits of the two
			// words, and v2 (up to 60 bits) ends at bit w: a = n+l1 <= 64,
			// w = a+l2 <= 124. uint8: bounds hints for top and bytes.
			a := uint8(n + l1)
			w := a + uint8(l2)
			// First word: the pending bits and v1 at the top, then v2,
			// moved down when it spills into the second word (w > 64),
			// else up. The term that does not apply is 0, or both are v2
			// (w == 64).
			hi := (x<<(l1&63)|v1)*t.Top[a] | v2>>(w&63) | v2*t.Top[w]
			// Second word: the rest of v2. When w <= 64 it is garbage
			// past the bytes this step completes; later stores, which
			// start at most 8 bytes apart, write over it.
			lo := v2 << (-w & 63)
			binary.BigEndian.PutUint64((*[8]byte)(p)[:], hi)
			binary.BigEndian.PutUint64((*[8]byte)(unsafe.Add(p, 8))[:], lo)
			p = unsafe.Add(p, t.Bytes[w])
			x, n = v2, uint(w&7)
			if w <= 36 {
				break // short codes again: back to text
			}
		}
		// The pair that stopped the loops goes alone: it may hold a 30-bit
		// code. This also makes sure that the outer loop moves on. Safe
		// reads: both loops above leave at least 8 bytes.
		v, l := pair(t, in, i)
		i += 2
		p, x, n = putPair(t, p, x, n, v, l)
	}
	for ; i+2 <= len(s); i += 2 {
		v, l := pair(t, in, i)
		p, x, n = putPair(t, p, x, n, v, l)
	}
	if i < len(s) {
		c := *(*byte)(unsafe.Add(in, i))
		p, x, n = putCode(t, p, x, n, t.Code[c], uint(t.Len[c]))
	}
	if n > 0 {
		// Pad with ones, the high bits of EOS. The &7 masks are shift
		// hints: 0 < n < 8.
		*(*byte)(p) = byte(x<<((8-n)&7)) | byte(0xff>>(n&7))
		p = unsafe.Add(p, 1)
	}
	return p
}
