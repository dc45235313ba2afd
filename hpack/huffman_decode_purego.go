//go:build purego

package hpack

// appendHuffmanDecode is AppendHuffmanDecodeLimit for a maxLen of 0 or
// more: under purego, the pure-Go twin.
func appendHuffmanDecode(dst, src []byte, maxLen int) ([]byte, error) {
	return appendHuffmanDecodeSafe(dst, src, maxLen)
}
