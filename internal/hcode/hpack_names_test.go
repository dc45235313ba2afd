package hcode

import "math"

// The Huffman tests came from package hpack; these stand in for the hpack
// names they call, with hpack's meaning (a maxLen <= 0 means no limit).

func AppendHuffmanDecode(dst, src []byte, maxLen int) ([]byte, error) {
	if maxLen <= 0 {
		maxLen = math.MaxInt
	}
	return AppendDecode(dst, src, maxLen)
}

var AppendHuffmanString = AppendEncode

var (
	ErrInvalidHuffman = ErrInvalid
	ErrStringLength   = ErrTooLong
)
