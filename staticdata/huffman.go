package staticdata

import "github.com/metapack/metapack/internal/huffdata"

// HuffmanEOS is the end-of-string symbol of the RFC 7541 Huffman code.
const HuffmanEOS = huffdata.HuffmanEOS

// HuffmanCode returns the RFC 7541 Appendix B code of symbol sym (0 to 255,
// or HuffmanEOS), right-aligned, and its length in bits; ok is false, and
// the others 0, for any other sym.
func HuffmanCode(sym int) (code uint32, bits uint8, ok bool) {
	if uint(sym) > HuffmanEOS {
		return 0, 0, false
	}
	return huffdata.HuffmanCodes[sym], huffdata.HuffmanCodeLen[sym], true
}
