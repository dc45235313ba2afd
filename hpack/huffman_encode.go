package hpack

import "github.com/metapack/metapack/internal/huffdata"

// HuffmanEncodeLength returns the number of bytes that the Huffman encoding
// of s takes, padding included.
func HuffmanEncodeLength(s string) uint64 {
	var bits uint64
	for i := 0; i < len(s); i++ {
		bits += uint64(huffdata.HuffmanCodeLen[s[i]])
	}
	return (bits + 7) / 8
}

// maxHuffmanBytesPerByte bounds the encoded size: the longest code of a
// byte is 30 bits, under 4 bytes.
const maxHuffmanBytesPerByte = 4

// AppendHuffmanString appends the Huffman encoding of s to dst, padded with
// the high bits of EOS as RFC 7541 §5.2 requires, and returns the extended
// buffer. It does not allocate when dst has room for 4*len(s)+8 bytes, or
// for the exact encoded length plus 8.
//
// The default build stores 8-byte words through an unsafe pointer; under
// the purego build tag AppendHuffmanString is appendHuffmanStringSafe.
func AppendHuffmanString(dst []byte, s string) []byte {
	return appendHuffmanString(dst, s)
}
