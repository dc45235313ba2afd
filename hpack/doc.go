// Package hpack encodes and decodes HTTP/2 header blocks (RFC 7541).
//
// This file set holds the Huffman codec (RFC 7541 §5.2 and Appendix B):
// [AppendHuffmanString] and [HuffmanEncodeLength] match the functions of the
// same names in golang.org/x/net/http2/hpack, and [AppendHuffmanDecode]
// decodes into a caller's buffer. Neither direction allocates when the
// destination has room.
//
// The decoder reads its input through a 64-bit bit buffer and a generated
// 12-bit table that yields up to two symbols per lookup; codes longer than
// 12 bits (rare in header text) go through small generated sub-tables.
package hpack
