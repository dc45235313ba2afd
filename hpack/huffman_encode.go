package hpack

import "github.com/metapack/metapack/internal/huffdata"

// huffmanLen returns the length of s's Huffman coding, padding included.
func huffmanLen(s string) int {
	var bits int
	for i := 0; i < len(s); i++ {
		bits += int(huffdata.HuffmanCodeLen[s[i]])
	}
	return (bits + 7) / 8
}

// maxHuffmanBytesPerByte bounds the encoded size: the longest code of a
// byte is 30 bits, under 4 bytes.
const maxHuffmanBytesPerByte = 4

// AppendHuffmanString appends the Huffman coding of s to dst, padded with
// the high bits of EOS as RFC 7541 §5.2 requires, and returns the extended
// buffer. It does not allocate when dst has room for 4*len(s)+8 bytes, or
// for the exact encoded length plus 8.
func AppendHuffmanString(dst []byte, s string) []byte {
	return appendHuffmanString(dst, s)
}
