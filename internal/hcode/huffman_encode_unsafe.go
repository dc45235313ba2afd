//go:build !purego

package hcode

import (
	"encoding/binary"
	"slices"
	"unsafe"

	"github.com/metapack/metapack/internal/huffdata"
)

// huffmanTables is the encoder's tables, through one base pointer.
var huffmanTables = &huffdata.HuffmanEncodeTables

// growForHuffman returns dst with room for the encoded length of s plus the
// 8 bytes of slack that the encoder's stores need.
//
//go:noinline
func growForHuffman(dst []byte, s string) []byte {
	return slices.Grow(dst, EncodedLen(s)+8)
}

// How the encoder works
//
// Output goes out in 8-byte big-endian stores. The n < 8 bits of the last,
// incomplete output byte are the low bits of x. A step appends l bits of
// codes to x and stores x*top[k], k = n+l <= 64, which moves the low k bits
// of x to the top of the word; the output pointer moves past the complete
// bytes. So every store starts within the encoded length and ends within
// the 8 bytes of slack after it. Text goes eight bytes per store while
// their codes fit in 57 bits, else a pair of codes per store.

// AppendEncode appends the Huffman coding of s to dst, padded with the high
// bits of EOS (RFC 7541 §5.2). It does not allocate when dst has room for
// MaxBytesPerByte*len(s)+8 bytes, or for EncodedLen(s)+8. Its pure-Go twin
// is AppendEncodeSafe.
//
// SAFETY: every byte read is in s: the loops read in[j:j+8] with in =
// &s[len(s)-8] and 8-len(s) <= j <= 0, split reads a pair that its round
// read, and the tail reads tb[i:e], which is in s. Every store is within
// cap(dst): each 8-byte store starts within the encoded length after
// len(dst) and ends at most 8 bytes past it, and the check at the top
// leaves the encoded length plus 8 bytes of room (see "How the encoder
// works"); the returned slice ends at the last complete byte. Guarded by
// TestHuffmanEncodeAtGuard, TestHuffmanEncodeStaysInRoom,
// TestEncoderAtGuard, TestHuffmanEncodeTwins, TestEncoderTwins and
// FuzzHuffmanTwins.
func AppendEncode(dst []byte, s string) []byte {
	// Only measure s when a rough bound does not fit.
	if cap(dst)-len(dst)-8 < MaxBytesPerByte*len(s) {
		if len(s) == 0 {
			return dst
		}
		dst = growForHuffman(dst, s)
	}
	t := huffmanTables
	_ = *t // one nil check, before the loops
	p := unsafe.Add(unsafe.Pointer(unsafe.SliceData(dst)), len(dst))
	var x uint64 // pending output bits: the low n bits of x
	var n uint
	// The loops read in[j:j+8], in = &s[len(s)-8], j from 8-len(s) to 0.
	j := 8 - len(s)
	in := unsafe.Pointer(unsafe.StringData(s))
	// The rest of s, fewer than 8 bytes, is tb[i:e]; see tail.
	var tb unsafe.Pointer
	var i, e int
	if j > 0 {
		tb, i, e = in, 0, len(s)
		goto tail
	}
	in = unsafe.Add(in, len(s)-8)
	for j <= 0 {
		// Text. Safe reads: j <= 0. The shift masks are hints.
		for {
			c0, c1 := *(*byte)(unsafe.Add(in, j)), *(*byte)(unsafe.Add(in, j+1))
			v := t.Code[c0]*t.Pow[c1] | t.Code[c1]
			l := uint(t.Len[c0] + t.Len[c1])
			c2, c3 := *(*byte)(unsafe.Add(in, j+2)), *(*byte)(unsafe.Add(in, j+3))
			l1 := uint(t.Len[c2] + t.Len[c3])
			v = v<<(l1&63) | t.Code[c2]*t.Pow[c3] | t.Code[c3]
			l += l1
			c4, c5 := *(*byte)(unsafe.Add(in, j+4)), *(*byte)(unsafe.Add(in, j+5))
			l2 := uint(t.Len[c4] + t.Len[c5])
			v = v<<(l2&63) | t.Code[c4]*t.Pow[c5] | t.Code[c5]
			l += l2
			c6, c7 := *(*byte)(unsafe.Add(in, j+6)), *(*byte)(unsafe.Add(in, j+7))
			l3 := uint(t.Len[c6] + t.Len[c7])
			v = v<<(l3&63) | t.Code[c6]*t.Pow[c7] | t.Code[c7]
			l += l3
			if l > 57 {
				break
			}
			j += 8
			// putCode, written out; its store is in bounds as putCode's is.
			x = x<<(l&63) | v
			k := n + l
			binary.BigEndian.PutUint64((*[8]byte)(p)[:], x*top(t, k))
			p = unsafe.Add(p, wholeBytes(t, k))
			n = k & 7
			if j > 0 {
				goto rest
			}
		}
		// Long codes: a pair per step. Safe reads: j <= 0.
		for {
			var a, b byte
			var v uint64
			var l, k uint
			a, b = *(*byte)(unsafe.Add(in, j+0)), *(*byte)(unsafe.Add(in, j+1))
			v = t.Code[a]*t.Pow[b] | t.Code[b]
			l = uint(t.Len[a] + t.Len[b])
			if l > 57 {
				goto split
			}
			x = x<<(l&63) | v
			k = n + l
			binary.BigEndian.PutUint64((*[8]byte)(p)[:], x*top(t, k))
			p = unsafe.Add(p, wholeBytes(t, k))
			n = k & 7
			a, b = *(*byte)(unsafe.Add(in, j+2)), *(*byte)(unsafe.Add(in, j+3))
			v = t.Code[a]*t.Pow[b] | t.Code[b]
			l = uint(t.Len[a] + t.Len[b])
			if l > 57 {
				j += 2
				goto split
			}
			x = x<<(l&63) | v
			k = n + l
			binary.BigEndian.PutUint64((*[8]byte)(p)[:], x*top(t, k))
			p = unsafe.Add(p, wholeBytes(t, k))
			n = k & 7
			a, b = *(*byte)(unsafe.Add(in, j+4)), *(*byte)(unsafe.Add(in, j+5))
			v = t.Code[a]*t.Pow[b] | t.Code[b]
			l = uint(t.Len[a] + t.Len[b])
			if l > 57 {
				j += 4
				goto split
			}
			x = x<<(l&63) | v
			k = n + l
			binary.BigEndian.PutUint64((*[8]byte)(p)[:], x*top(t, k))
			p = unsafe.Add(p, wholeBytes(t, k))
			n = k & 7
			a, b = *(*byte)(unsafe.Add(in, j+6)), *(*byte)(unsafe.Add(in, j+7))
			v = t.Code[a]*t.Pow[b] | t.Code[b]
			l = uint(t.Len[a] + t.Len[b])
			if l > 57 {
				j += 6
				goto split
			}
			x = x<<(l&63) | v
			k = n + l
			binary.BigEndian.PutUint64((*[8]byte)(p)[:], x*top(t, k))
			p = unsafe.Add(p, wholeBytes(t, k))
			n = k & 7
			j += 8
			if l <= 11 || j > 0 {
				break
			}
		}
		continue
	split:
		// The pair at j, over 57 bits, in two parts. Safe reads: its round
		// read it, so j+1 <= 7.
		{
			a, b := *(*byte)(unsafe.Add(in, j)), *(*byte)(unsafe.Add(in, j+1))
			v := t.Code[a]*t.Pow[b] | t.Code[b]
			l := uint(t.Len[a] + t.Len[b])
			p, x, n = putCode(t, p, x, n, v>>32, l-32)
			p, x, n = putCode(t, p, x, n, uint64(uint32(v)), 32)
			j += 2
		}
	}
rest:
	tb, i, e = in, j, 8
tail:
	// The rest of s, fewer than 8 bytes: tb[i:e].
	var v uint64
	var l uint
	for ; i < e; i++ {
		c := *(*byte)(unsafe.Add(tb, i)) // safe: tb[i:e] is in s
		cl := uint(t.Len[c])
		if l+cl > 57 {
			p, x, n = putCode(t, p, x, n, v, l)
			v, l = 0, 0
		}
		v = v*t.Pow[c] | t.Code[c]
		l += cl
	}
	if l > 0 {
		p, x, n = putCode(t, p, x, n, v, l)
	}
	if n > 0 {
		// Pad with ones, the high bits of EOS.
		*(*byte)(p) = byte(x<<((8-n)&7)) | byte(0xff>>(n&7))
		p = unsafe.Add(p, 1)
	}
	return dst[:uintptr(p)-uintptr(unsafe.Pointer(unsafe.SliceData(dst)))]
}

// top returns t.Top[k] and wholeBytes t.Bytes[k], without a bounds check.
//
// SAFETY: every caller, putCode included, has k = n+l with n < 8 and
// l <= 57, so k <= 64, and both tables have 256 entries; guarded by
// TestHuffmanEncodeTwins and TestHuffmanEncodeAtGuard, whose inputs reach
// k = 64 (eight text codes of 57 bits, and 30-bit pairs after 7 pending
// bits).
func top(t *huffdata.HuffmanEncoder, k uint) uint64 {
	return *(*uint64)(unsafe.Add(unsafe.Pointer(&t.Top), k*8))
}

// SAFETY: as for top, k <= 64 of 256 entries; guarded by
// TestHuffmanEncodeTwins and TestHuffmanEncodeAtGuard.
func wholeBytes(t *huffdata.HuffmanEncoder, k uint) uint64 {
	return *(*uint64)(unsafe.Add(unsafe.Pointer(&t.Bytes), k*8))
}

// putCode appends the l-bit code v (l <= 57) to the n pending bits in x,
// stores their word at p, and returns the new p, x and n.
//
// SAFETY: p is within the encoded length of AppendEncode's output,
// which has 8 bytes of room after it, so the 8-byte store stays in the
// buffer; guarded by TestHuffmanEncodeAtGuard and
// TestHuffmanEncodeStaysInRoom.
func putCode(t *huffdata.HuffmanEncoder, p unsafe.Pointer, x uint64, n uint, v uint64, l uint) (unsafe.Pointer, uint64, uint) {
	x = x<<(l&63) | v // l&63 == l; the mask drops the oversized-shift code
	k := n + l
	binary.BigEndian.PutUint64((*[8]byte)(p)[:], x*top(t, k))
	return unsafe.Add(p, wholeBytes(t, k)), x, k & 7
}
