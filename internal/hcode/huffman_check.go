package hcode

import (
	"math"

	"github.com/metapack/metapack/internal/huffdata"
)

// Checker checks Huffman-coded bytes fed to it in pieces, as decoding
// them would (RFC 7541 §5.2), without keeping their symbols; its zero
// value starts a string.
type Checker struct {
	buf uint64 // unread bits, left-aligned
	nb  uint
}

// Feed checks p's codes, keeping the bits of the last, unfinished one.
func (c *Checker) Feed(p []byte) error {
	fast := &huffdata.HuffmanDecodeFast
	for _, b := range p {
		c.buf |= uint64(b) << (56 - c.nb)
		c.nb += 8
		for c.nb >= MaxCodeBits { // a whole code is in buf
			e := fast[c.buf>>fastShift]
			if e&fastCountMask == 0 {
				if e = decodeLong(c.buf); e == 0 {
					return ErrEOS
				}
			}
			n := uint(e) & fastUsedMask
			c.buf <<= n
			c.nb -= n
		}
	}
	return nil
}

// Finish checks the codes and padding left once the string is whole.
func (c *Checker) Finish() error {
	for c.nb > 0 {
		padded := c.buf | math.MaxUint64>>c.nb
		e := huffdata.HuffmanDecodeFast[padded>>fastShift]
		n := uint(e&fastLen1Mask) >> huffdata.HuffmanFastLen1Shift
		if e&fastCountMask == 0 {
			if e = decodeLong(padded); e == 0 {
				n = MaxCodeBits
			} else {
				n = uint(e) & fastUsedMask
			}
		}
		if n > c.nb {
			if c.nb > 7 || c.buf != ^(math.MaxUint64>>c.nb) {
				return ErrPadding
			}
			return nil
		}
		if n == MaxCodeBits {
			return ErrEOS
		}
		c.buf <<= n
		c.nb -= n
	}
	return nil
}
