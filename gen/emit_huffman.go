package main

import (
	"bytes"
	"fmt"
	"go/format"

	"github.com/metapack/metapack/internal/tabledef"
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
	fast := make([]uint32, 1<<tabledef.HuffmanFastBits)
	for idx := range fast {
		v := uint32(idx) << (32 - tabledef.HuffmanFastBits)
		s1, n1 := t.symbolAt(v)
		if n1 > tabledef.HuffmanFastBits {
			if idx>>(tabledef.HuffmanFastBits-tabledef.HuffmanMidStart) != 1<<tabledef.HuffmanMidStart-1 {
				return nil, fmt.Errorf("long code under %#x lacks %d leading ones", idx, tabledef.HuffmanMidStart)
			}
			continue // zero: see tabledef's layout of an entry
		}
		e := uint32(n1) | 1<<tabledef.HuffmanFastCountShift | uint32(s1)<<tabledef.HuffmanFastSym1Shift | uint32(n1)<<tabledef.HuffmanFastLen1Shift
		if s2, n2 := t.symbolAt(v << n1); n1+n2 <= tabledef.HuffmanFastBits && s2 != 256 {
			e = uint32(n1+n2) | 2<<tabledef.HuffmanFastCountShift | uint32(s1)<<tabledef.HuffmanFastSym1Shift | uint32(s2)<<tabledef.HuffmanFastSym2Shift | uint32(n1)<<tabledef.HuffmanFastLen1Shift
		}
		fast[idx] = e
	}
	// leaf is a long table's entry for the code at the top of v.
	leaf := func(v uint32, maxLen int) (uint16, error) {
		sym, n := t.symbolAt(v)
		if n > maxLen {
			return 0, fmt.Errorf("code of %d (%d bits) is past the %d bits of its long table", sym, n, maxLen)
		}
		if sym == 256 {
			return 0, nil // EOS: a decoder stalls on it and looks closer
		}
		return uint16(n) | 1<<tabledef.HuffmanFastCountShift | uint16(sym)<<tabledef.HuffmanFastSym1Shift, nil
	}
	ones := func(k int) uint32 { return ^uint32(0) << (32 - k) }
	mid := make([]uint16, 1<<tabledef.HuffmanMidBits)
	for idx := range mid {
		v := ones(tabledef.HuffmanMidStart) | uint32(idx)<<(32-tabledef.HuffmanMidStart-tabledef.HuffmanMidBits)
		if v >= ones(tabledef.HuffmanHighStart) {
			continue // the high table's: left zero
		}
		e, err := leaf(v, tabledef.HuffmanMidStart+tabledef.HuffmanMidBits)
		if err != nil {
			return nil, err
		}
		mid[idx] = e
	}
	high := make([]uint16, 1<<tabledef.HuffmanHighBits)
	for idx := range high {
		v := ones(tabledef.HuffmanHighStart) | uint32(idx)<<(32-tabledef.HuffmanHighStart-tabledef.HuffmanHighBits)
		e, err := leaf(v, tabledef.HuffmanHighStart+tabledef.HuffmanHighBits)
		if err != nil {
			return nil, err
		}
		high[idx] = e
	}

	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("package huffdata\n\n")
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
	b.WriteString("// HuffmanDecodeFast is the first-level decode table, indexed by the next\n")
	b.WriteString("// HuffmanFastBits bits of input. See HuffmanFast* for the layout of an\n")
	b.WriteString("// entry.\n")
	b.WriteString("var HuffmanDecodeFast = [1 << HuffmanFastBits]uint32{")
	writeElems(&b, fast, "%#08x")
	b.WriteString("\n")
	b.WriteString("// HuffmanDecodeMid serves codes longer than HuffmanFastBits with under\n")
	b.WriteString("// HuffmanHighStart leading ones, indexed by the HuffmanMidBits bits after\n")
	b.WriteString("// the first HuffmanMidStart. See HuffmanMid* for the layout of an entry.\n")
	b.WriteString("var HuffmanDecodeMid = [1 << HuffmanMidBits]uint16{")
	writeElems(&b, mid, "%#04x")
	b.WriteString("\n")
	b.WriteString("// HuffmanDecodeHigh serves codes with HuffmanHighStart or more leading\n")
	b.WriteString("// ones, indexed by the HuffmanHighBits bits after the first\n")
	b.WriteString("// HuffmanHighStart. Its entries are laid out as HuffmanDecodeMid's.\n")
	b.WriteString("var HuffmanDecodeHigh = [1 << HuffmanHighBits]uint16{")
	writeElems(&b, high, "%#04x")
	return format.Source(b.Bytes())
}

// writeElems writes the elements of a table literal, eight per line in
// the given format, and closes the literal.
func writeElems[T uint16 | uint32](b *bytes.Buffer, xs []T, format string) {
	for i, e := range xs {
		if i%8 == 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(b, format+", ", e)
	}
	b.WriteString("\n}\n")
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
				return fmt.Errorf("the Huffman code of %d is a prefix of the code of %d", a, b)
			}
		}
	}
	if kraft != 1<<30 {
		return fmt.Errorf("the Huffman code does not fill the code space")
	}
	return nil
}
