package hpack

import (
	"encoding/binary"
	"math"
	"slices"

	sd "github.com/metapack/metapack/staticdata"
)

// Field extraction from a first-level decode table entry.
const (
	fastUsedMask  = 0x3f
	fastCountMask = 0x3 << sd.HuffmanFastCountShift
	fastLen1Mask  = 0x1f << sd.HuffmanFastLen1Shift
	fastShift     = 64 - sd.HuffmanFastBits
	maxCodeBits   = 30 // the longest Huffman code
	// decodeSlack is the room beyond the decoded length that the two-byte
	// stores may touch.
	decodeSlack = 8
	// fastRoom is the room the fast loop wants per refill: at most 11
	// lookups (63 bits, 5 or more each) of two bytes each.
	fastRoom = 24
)

// AppendHuffmanDecode appends the decoding of the Huffman-encoded src to dst
// and returns the extended buffer. Invalid input (RFC 7541 §5.2: EOS in the
// string, padding over 7 bits or not all ones) yields an error matching
// ErrInvalidHuffman, and dst's length is left as it was. It does not
// allocate when dst has room for len(src)*8/5+16 more bytes: the most the
// input can decode to, plus slack for two-byte stores.
func AppendHuffmanDecode(dst, src []byte) ([]byte, error) {
	return AppendHuffmanDecodeLimit(dst, src, math.MaxInt)
}

// AppendHuffmanDecodeLimit is AppendHuffmanDecode with a cap: when the
// decoded string would be longer than maxLen bytes it fails with
// ErrStringLength, having written nothing at or past dst[len(dst)+maxLen]
// and without growing dst past what maxLen needs.
func AppendHuffmanDecodeLimit(dst, src []byte, maxLen int) ([]byte, error) {
	start := len(dst)
	// Every code is at least 5 bits, so src decodes to at most len(src)*8/5
	// bytes.
	if want := min(len(src)*8/5, maxLen) + decodeSlack; cap(dst)-start < want {
		dst = slices.Grow(dst, want)
	}
	// limit is one past the last byte we may write.
	limit := cap(dst)
	if maxLen < limit-start {
		limit = start + maxLen
	}
	out := dst[:limit]
	o := start
	fast := &sd.HuffmanDecodeFast

	o, i, buf, nb, err := decodeHuffmanFast(out, o, src)
	if err != nil {
		return dst[:start], err
	}
	// Tail: under 8 bytes of input (or little room) remain. Refill byte by
	// byte; take whole table entries while they fit the buffered bits, and
	// fall back to one careful symbol at a time for long codes, the end of
	// the input and the limit.
	src = src[i:]
	i = 0
	for {
		for nb <= 56 && i < len(src) {
			buf |= uint64(src[i]) << (56 - nb)
			nb += 8
			i++
		}
		e := fast[buf>>fastShift]
		if used := uint(e & fastUsedMask); e&fastCountMask != 0 && used <= nb && limit-o >= 2 {
			binary.LittleEndian.PutUint16(out[o:], uint16(e>>sd.HuffmanFastSym1Shift))
			o += int(e&fastCountMask) >> sd.HuffmanFastCountShift
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
			sym, n = decodeLong(e, padded)
		} else {
			sym, n = int(byte(e>>sd.HuffmanFastSym1Shift)), uint(e&fastLen1Mask)>>sd.HuffmanFastLen1Shift
		}
		if n > nb {
			if nb > 7 || buf != ^(math.MaxUint64>>nb) {
				return dst[:start], ErrHuffmanPadding
			}
			return dst[:o], nil
		}
		if sym == sd.HuffmanEOS {
			return dst[:start], ErrHuffmanEOS
		}
		if o-start >= maxLen {
			return dst[:start], ErrStringLength
		}
		if o == len(out) {
			// Out of room below the limit: grow. Only reached when dst
			// had room but not the slack the fast stores want.
			dst = append(dst[:o], byte(sym))
			out = dst[:min(cap(dst), start+maxLen)]
		} else {
			out[o] = byte(sym)
		}
		o++
		buf <<= n
		nb -= n
	}
}

// decodeHuffmanFast decodes from src into out[o:] while at least 8 bytes of
// input and 8 bytes of room remain. It returns the new output position, how
// much input it consumed, and the bit buffer with the bits not yet decoded.
// It is kept apart and small so that its loop stays in registers.
func decodeHuffmanFast(out []byte, o int, src []byte) (int, int, uint64, uint, error) {
	var buf uint64 // unread bits, left-aligned; bits past nb hold input already read ahead
	var nb uint    // how many bits of buf are valid
	i := 0
	fast := &sd.HuffmanDecodeFast
	long := &sd.HuffmanDecodeLong
	// One unaligned 8-byte load refills buf to at least 56 bits. Lookups
	// then go on while the buffered bits cover the entry: up to 11 of them,
	// each storing two bytes and advancing o past the symbols it decoded,
	// hence the room check.
	for len(src)-i >= 8 && len(out)-o >= fastRoom {
		buf |= binary.BigEndian.Uint64(src[i:]) >> (nb & 63) // shift hint: nb < 64
		k := (63 - nb) >> 3
		i += int(k)
		nb += k * 8
		for {
			e := fast[buf>>fastShift]
			if e&fastCountMask != 0 {
				used := uint(e & fastUsedMask)
				if used > nb {
					break
				}
				binary.LittleEndian.PutUint16(out[o:], uint16(e>>sd.HuffmanFastSym1Shift))
				o += int(e&fastCountMask) >> sd.HuffmanFastCountShift
				buf <<= used & 63 // shift hint: used <= 12
				nb -= used
				continue
			}
			if nb < maxCodeBits {
				break // refill first: the code may be up to 30 bits
			}
			// Second level inline: it resolves every code of up to 24 bits.
			width := uint(e & fastUsedMask)
			// The mask is a bounds-check hint: the table length is a power of
			// two and generated offsets are in range, so it changes nothing.
			le := long[(e>>sd.HuffmanFastOffsetShift+uint32(buf<<sd.HuffmanFastBits>>((64-width)&63)))&(uint32(len(long))-1)]
			var sym int
			var n uint
			if le&sd.HuffmanLongLink == 0 {
				sym, n = int(le&0x1ff), uint(le>>sd.HuffmanLongLenShift)&0x1f
			} else {
				sym, n = decodeLong(e, buf)
			}
			if sym == sd.HuffmanEOS {
				return o, i, buf, nb, ErrHuffmanEOS
			}
			out[o] = byte(sym)
			o++
			buf <<= n & 63 // shift hint: n <= 30
			nb -= n
		}
	}
	return o, i, buf, nb, nil
}

// decodeLong decodes a code longer than 12 bits at the top of buf, given its
// first-level entry e. It returns the symbol and the code length.
func decodeLong(e uint32, buf uint64) (sym int, n uint) {
	used := uint(sd.HuffmanFastBits)
	off := e >> sd.HuffmanFastOffsetShift & 0xffff
	width := uint(e & fastUsedMask)
	for {
		le := sd.HuffmanDecodeLong[off+uint32(buf<<used>>(64-width))]
		if le&sd.HuffmanLongLink == 0 {
			return int(le & 0x1ff), uint(le>>sd.HuffmanLongLenShift) & 0x1f
		}
		used += width
		off = le & 0xffff
		width = uint(le>>sd.HuffmanLongWidthShift) & 0x1f
	}
}
