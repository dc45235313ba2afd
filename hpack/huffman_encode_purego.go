//go:build purego

package hpack

// appendHuffmanString is AppendHuffmanString under the purego build tag:
// the bounds-checked twin.
func appendHuffmanString(dst []byte, s string) []byte {
	return appendHuffmanStringSafe(dst, s)
}
