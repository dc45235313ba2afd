package hpack

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/metapack/metapack/internal/huffdata"
)

// appendHuffmanDecodeSafe is the pure-Go twin of the fast decoder
// (appendHuffmanDecode in the default build): it gives the same results and errors, with
// every read and write bounds-checked, one symbol or two per step. A
// negative maxLen allows nothing, as 0 does. -tags purego builds
// appendHuffmanDecode on it; the default build compiles it too, for
// the differential tests.
func appendHuffmanDecodeSafe(dst, src []byte, maxLen int) ([]byte, error) {
	maxLen = max(maxLen, 0)
	start := len(dst)
	// Every code is at least 5 bits, so src decodes to at most len(src)*8/5
	// bytes; the steps want 2 bytes of room for a two-symbol store.
	if want := min(len(src)*8/5, maxLen) + 2; cap(dst)-start < want {
		dst = slices.Grow(dst, want)
	}
	out := dst[:start+min(cap(dst)-start, maxLen)]
	o, pos := decodeHuffmanRoundsSafe(out, start, src)
	return appendHuffmanCareful(dst, out, start, o, src, pos, maxLen)
}

// decodeHuffmanRoundsSafe decodes src into out at o in rounds of three
// first-level lookups per 8-byte refill, bounds-checked, while 8 bytes of
// input and 8 of room remain, and stops at the first code longer than
// HuffmanFastBits (which includes EOS). It returns the output position and
// the bit position reached, a symbol boundary, from which
// appendHuffmanCareful finishes: the rounds never see the input's last
// bytes, so they never judge padding, and each symbol they write lies
// within out, which the caller bounds by maxLen.
func decodeHuffmanRoundsSafe(out []byte, o int, src []byte) (int, uint) {
	fast := &huffdata.HuffmanDecodeFast
	var buf uint64 // unread bits, left-aligned; bits past nb hold input read ahead
	var nb uint
	i := 0
	for len(src)-i >= 8 && len(out)-o >= 8 {
		// The refill ORs in bits that buf may already hold past nb: they
		// are the same input bits.
		buf |= binary.BigEndian.Uint64(src[i:]) >> (nb & 63)
		i += int((63 - nb) >> 3)
		nb |= 56
		// Three lookups take at most 39 of the 56 or more bits, and store
		// at most 6 bytes: within the 8 of room.
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

// appendHuffmanCareful decodes src from bit pos into out at o one step at
// a time, checking the input's end, the limit and the room at each step. It
// finishes what the rounds leave: the end of an input when little room is
// left, and inputs near maxLen.
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
		// Once the input is used up, bits of buf past nb are zero. Read them
		// as ones: a code that reaches into them is either padding (all
		// ones, under 8 bits) or truncated.
		padded := buf | math.MaxUint64>>nb
		e = fast[padded>>fastShift]
		var sym int
		var n uint
		if e&fastCountMask == 0 {
			if e = decodeLong(padded); e == 0 {
				sym, n = huffdata.HuffmanEOS, maxCodeBits
			} else {
				sym, n = int(byte(e>>huffdata.HuffmanFastSym1Shift)), uint(e)&fastUsedMask
			}
		} else {
			sym, n = int(byte(e>>huffdata.HuffmanFastSym1Shift)), uint(e&fastLen1Mask)>>huffdata.HuffmanFastLen1Shift
		}
		if n > nb {
			if nb > 7 || buf != ^(math.MaxUint64>>nb) {
				return dst[:start], errHuffmanPadding
			}
			return dst[:o], nil
		}
		if sym == huffdata.HuffmanEOS {
			return dst[:start], errHuffmanEOS
		}
		if o-start >= maxLen {
			return dst[:start], ErrStringLength
		}
		if o == len(out) {
			// Out of room below the limit: grow. Only reached when dst
			// had room but not the slack the fast stores want.
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
