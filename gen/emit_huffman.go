package main

import (
	"bytes"
	"fmt"
	"go/format"
)

// The bit layouts below are mirrored by the constants in
// staticdata/huffman.go; the Huffman tests in hpack fail if the two drift.
const (
	fastBits = 12 // index width of the first-level decode table

	// First-level entry: up to two whole symbols decoded from 12 bits. The
	// bits consumed sit in the low 6 bits so that a decoder can shift its
	// bit buffer by the entry itself.
	fastCountShift = 6  // symbols decoded (0, 1 or 2), 2 bits
	fastSym1Shift  = 8  // first symbol
	fastSym2Shift  = 16 // second symbol
	fastLen1Shift  = 24 // length of the first symbol, 5 bits
	// When the count is 0 the code is longer than 12 bits: bits 8-23 are
	// the offset of a sub-table in the long table, bits 24-28 its width,
	// and the consumed bits (0-5) are zero, so a decoder that shifts by
	// the entry without looking at it stays where it is.
	fastOffsetShift = 8
	fastWidthShift  = 24

	// Long-table entry.
	longLink       = 1 << 31
	longWidthShift = 16 // link: sub-table width
	longLenShift   = 16 // leaf: total code length
)

// decodeTree maps (code, length) to a symbol for the table builder.
type decodeTree struct {
	h *huffmanCode
}

// symbolAt returns the symbol whose code is a prefix of the left-aligned
// 32-bit value v, and that code's length.
func (t decodeTree) symbolAt(v uint32) (sym int, bits int) {
	for s := 0; s < 257; s++ {
		n := int(t.h.bits[s])
		if v>>(32-n) == t.h.code[s] {
			return s, n
		}
	}
	panic("Huffman code is not complete")
}

func emitHuffman(h *huffmanCode) ([]byte, error) {
	if err := checkPrefixFree(h); err != nil {
		return nil, err
	}
	t := decodeTree{h}
	fast := make([]uint32, 1<<fastBits)
	var long []uint32
	for idx := range fast {
		v := uint32(idx) << (32 - fastBits)
		s1, n1 := t.symbolAt(v)
		if n1 > fastBits {
			off, width := buildLong(t, &long, uint32(idx), fastBits)
			fast[idx] = uint32(off)<<fastOffsetShift | uint32(width)<<fastWidthShift
			continue
		}
		e := uint32(n1) | 1<<fastCountShift | uint32(s1)<<fastSym1Shift | uint32(n1)<<fastLen1Shift
		if s2, n2 := t.symbolAt(v << n1); n1+n2 <= fastBits && s2 != 256 {
			e = uint32(n1+n2) | 2<<fastCountShift | uint32(s1)<<fastSym1Shift | uint32(s2)<<fastSym2Shift | uint32(n1)<<fastLen1Shift
		}
		fast[idx] = e
	}
	if len(long) > 1<<16 {
		return nil, fmt.Errorf("long table too large: %d", len(long))
	}
	// Pad to a power of two so that a decoder can mask an index instead of
	// checking its bounds.
	for len(long)&(len(long)-1) != 0 {
		long = append(long, 0)
	}

	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("package staticdata\n\n")
	b.WriteString("// HuffmanCodes is RFC 7541 Appendix B: the code of each symbol, right-aligned.\n// Symbol 256 is EOS.\n")
	b.WriteString("var HuffmanCodes = [257]uint32{")
	for s := range 257 {
		fmt.Fprintf(&b, "%#x, ", h.code[s])
	}
	b.WriteString("}\n\n// HuffmanCodeLen is the length in bits of each symbol's code.\n")
	b.WriteString("var HuffmanCodeLen = [257]uint8{")
	for s := range 257 {
		fmt.Fprintf(&b, "%d, ", h.bits[s])
	}
	b.WriteString("}\n\n")
	b.WriteString("// HuffmanEncodeTables holds each byte's code in the forms an encoder\n")
	b.WriteString("// combines them in. See HuffmanEncoder.\n")
	b.WriteString("var HuffmanEncodeTables = HuffmanEncoder{\n")
	table := func(name string, v func(i int) uint64) {
		fmt.Fprintf(&b, "%s: [256]uint64{", name)
		for i := range 256 {
			if i%8 == 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "%#x, ", v(i))
		}
		b.WriteString("\n},\n")
	}
	table("Code", func(c int) uint64 { return uint64(h.code[c]) })
	table("Pow", func(c int) uint64 { return 1 << h.bits[c] })
	table("Len", func(c int) uint64 { return uint64(h.bits[c]) })
	table("Top", func(k int) uint64 {
		if k >= 1 && k <= 64 {
			return 1 << (64 - k)
		}
		return 0
	})
	table("Bytes", func(k int) uint64 { return uint64(k / 8) })
	b.WriteString("}\n\n")
	b.WriteString("// HuffmanDecodeFast is the first-level decode table, indexed by the next 12\n")
	b.WriteString("// bits of input. See HuffmanFast* for the layout of an entry.\n")
	b.WriteString("var HuffmanDecodeFast = [1 << HuffmanFastBits]uint32{")
	for i, e := range fast {
		if i%8 == 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%#08x, ", e)
	}
	b.WriteString("\n}\n\n")
	b.WriteString("// HuffmanDecodeLong holds the sub-tables for codes longer than 12 bits.\n")
	b.WriteString("// See HuffmanLong* for the layout of an entry. Its length is a power of two;\n")
	b.WriteString("// the entries past the last sub-table are unused.\n")
	fmt.Fprintf(&b, "var HuffmanDecodeLong = [%d]uint32{", len(long))
	for i, e := range long {
		if i%8 == 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%#08x, ", e)
	}
	b.WriteString("\n}\n")
	return format.Source(b.Bytes())
}

// buildLong appends a sub-table for the codes that start with the used-bit
// prefix, and returns its offset and width. The width covers the longest
// such code, capped at 12 bits; longer codes get sub-tables of their own.
func buildLong(t decodeTree, long *[]uint32, prefix uint32, used int) (off, width int) {
	maxLen := 0
	for s := 0; s < 257; s++ {
		n := int(t.h.bits[s])
		if n > used && t.h.code[s]>>(n-used) == prefix && n > maxLen {
			maxLen = n
		}
	}
	width = min(maxLen-used, 12)
	off = len(*long)
	*long = append(*long, make([]uint32, 1<<width)...)
	for i := 0; i < 1<<width; i++ {
		full := prefix<<width | uint32(i)
		v := full << (32 - used - width)
		sym, n := t.symbolAt(v)
		if n > used+width {
			subOff, subWidth := buildLong(t, long, full, used+width)
			(*long)[off+i] = longLink | uint32(subOff) | uint32(subWidth)<<longWidthShift
			continue
		}
		(*long)[off+i] = uint32(sym) | uint32(n)<<longLenShift
	}
	return off, width
}

// checkPrefixFree rejects a code table in which one code is a prefix of
// another, or that does not fill the code space exactly.
func checkPrefixFree(h *huffmanCode) error {
	var kraft uint64 // sum of 2^(30-len)
	for a := 0; a < 257; a++ {
		kraft += 1 << (30 - uint(h.bits[a]))
		for b := 0; b < 257; b++ {
			if a == b || h.bits[a] > h.bits[b] {
				continue
			}
			if h.code[b]>>(h.bits[b]-h.bits[a]) == h.code[a] {
				return fmt.Errorf("Huffman code of %d is a prefix of the code of %d", a, b)
			}
		}
	}
	if kraft != 1<<30 {
		return fmt.Errorf("Huffman code does not fill the code space")
	}
	return nil
}
