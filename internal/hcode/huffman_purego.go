//go:build purego

package hcode

// Under purego the Huffman codec is its pure-Go twins.

func AppendDecode(dst, src []byte, maxLen int) ([]byte, error) {
	return AppendDecodeSafe(dst, src, maxLen)
}

func AppendEncode(dst []byte, s string) []byte {
	return AppendEncodeSafe(dst, s)
}
