package hcode

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/metapack/metapack/internal/huffdata"
)

// Field extraction from a first-level decode table entry.
const (
	fastUsedMask  = 0x3f
	fastCountMask = 0x3 << huffdata.HuffmanFastCountShift
	fastLen1Mask  = 0x1f << huffdata.HuffmanFastLen1Shift
	fastShift     = 64 - huffdata.HuffmanFastBits
	MaxCodeBits   = 30 // the longest Huffman code
)

// Where the long tables read the bit buffer (see huffdata.HuffmanMidStart).
const (
	midShift  = 64 - huffdata.HuffmanMidStart - huffdata.HuffmanMidBits
	midMask   = 1<<huffdata.HuffmanMidBits - 1
	highShift = 64 - huffdata.HuffmanHighStart - huffdata.HuffmanHighBits
	highMask  = 1<<huffdata.HuffmanHighBits - 1
)

// decodeLong returns the first-level-style entry for the long code at the
// top of buf, or zero for EOS.
func decodeLong(buf uint64) uint32 {
	e := huffdata.HuffmanDecodeMid[buf>>midShift&midMask]
	h := huffdata.HuffmanDecodeHigh[buf>>highShift&highMask]
	// buf >= highFirst
	if ^buf>>(64-huffdata.HuffmanHighStart) == 0 {
		e = h
	}
	return uint32(e)
}

// AppendDecodeSafe is the bounds-checked twin of AppendDecode,
// with the same results; -tags purego decodes with it.
func AppendDecodeSafe(dst, src []byte, maxLen int) ([]byte, error) {
	maxLen = max(maxLen, 0)
	start := len(dst)
	// At most len(src)*8/5 bytes out, and 2 of room for a store.
	if want := min(len(src)*8/5, maxLen) + 2; cap(dst)-start < want {
		dst = slices.Grow(dst, want)
	}
	out := dst[:start+min(cap(dst)-start, maxLen)]
	o, pos := decodeHuffmanRoundsSafe(out, start, src)
	return appendHuffmanCareful(dst, out, start, o, src, pos, maxLen)
}

// decodeHuffmanRoundsSafe decodes src into out at o in rounds of three
// lookups while 8 bytes of input and 8 of room remain, stopping at the
// first long code, and returns the output and bit positions reached.
func decodeHuffmanRoundsSafe(out []byte, o int, src []byte) (int, uint) {
	fast := &huffdata.HuffmanDecodeFast
	var buf uint64 // unread bits, left-aligned; bits past nb hold input read ahead
	var nb uint
	i := 0
	for len(src)-i >= 8 && len(out)-o >= 8 {
		buf |= binary.BigEndian.Uint64(src[i:]) >> (nb & 63)
		i += int((63 - nb) >> 3)
		nb |= 56
		for range 3 {
			e := fast[buf>>fastShift]
			if e&fastCountMask == 0 {
				return o, uint(i)*8 - nb
			}
			binary.LittleEndian.PutUint16(out[o:], uint16(e>>huffdata.HuffmanFastSym1Shift))
			o += int(e>>huffdata.HuffmanFastCountShift) & 3
			buf <<= e & fastUsedMask
			nb -= uint(e) & fastUsedMask
		}
	}
	return o, uint(i)*8 - nb
}

// appendHuffmanCareful finishes what the rounds leave, from bit pos, one
// checked step at a time.
func appendHuffmanCareful(dst, out []byte, start, o int, src []byte, pos uint, maxLen int) ([]byte, error) {
	fast := &huffdata.HuffmanDecodeFast
	limit := len(out)
	i := int(pos >> 3)
	var buf uint64
	var nb uint
	skip := pos & 7
	for {
		for nb <= 56 && i < len(src) {
			buf |= uint64(src[i]) << (56 - nb)
			nb += 8
			i++
		}
		if skip > 0 {
			buf <<= skip
			nb -= skip
			skip = 0
		}
		e := fast[buf>>fastShift]
		if used := uint(e & fastUsedMask); e&fastCountMask != 0 && used <= nb && limit-o >= 2 {
			binary.LittleEndian.PutUint16(out[o:], uint16(e>>huffdata.HuffmanFastSym1Shift))
			o += int(e&fastCountMask) >> huffdata.HuffmanFastCountShift
			buf <<= used
			nb -= used
			continue
		}
		if nb == 0 {
			return dst[:o], nil
		}
		// Read the bits past the input as ones: a code reaching into them
		// is padding or truncated.
		padded := buf | math.MaxUint64>>nb
		e = fast[padded>>fastShift]
		var sym int
		var n uint
		if e&fastCountMask == 0 {
			if e = decodeLong(padded); e == 0 {
				sym, n = huffdata.HuffmanEOS, MaxCodeBits
			} else {
				sym, n = int(byte(e>>huffdata.HuffmanFastSym1Shift)), uint(e)&fastUsedMask
			}
		} else {
			sym, n = int(byte(e>>huffdata.HuffmanFastSym1Shift)), uint(e&fastLen1Mask)>>huffdata.HuffmanFastLen1Shift
		}
		if n > nb {
			if nb > 7 || buf != ^(math.MaxUint64>>nb) {
				return dst[:start], ErrPadding
			}
			return dst[:o], nil
		}
		if sym == huffdata.HuffmanEOS {
			return dst[:start], ErrEOS
		}
		if o-start >= maxLen {
			return dst[:start], ErrTooLong
		}
		if o == len(out) {
			// Out of room below the limit: grow.
			dst = append(dst[:o], byte(sym))
			out = dst[:start+min(cap(dst)-start, maxLen)] // start+maxLen may overflow
			limit = len(out)
		} else {
			out[o] = byte(sym)
		}
		o++
		buf <<= n
		nb -= n
	}
}
