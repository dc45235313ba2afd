//go:build purego

package hpack

// AppendHuffmanDecodeLimit is AppendHuffmanDecode with a cap: when the
// decoded string would be longer than maxLen bytes it fails with
// ErrStringLength, having written nothing at or past dst[len(dst)+maxLen]
// and without growing dst past what maxLen needs. A negative maxLen allows
// nothing, as 0 does.
//
// Under purego it is the pure-Go twin, appendHuffmanDecodeSafe.
func AppendHuffmanDecodeLimit(dst, src []byte, maxLen int) ([]byte, error) {
	return appendHuffmanDecodeSafe(dst, src, maxLen)
}
