//go:build purego

package hpack

// Under purego the Huffman codec is its pure-Go twins.

func appendHuffmanDecode(dst, src []byte, maxLen int) ([]byte, error) {
	return appendHuffmanDecodeSafe(dst, src, maxLen)
}

func appendHuffmanString(dst []byte, s string) []byte {
	return appendHuffmanStringSafe(dst, s)
}
