// Package twin connects this module's tests to the pure-Go twins of
// package hpack's unsafe hot paths. Both implementations are compiled into
// every build; hpack sets these variables at init, so that the
// differential tests and fuzz targets in package fuzz, which can reach
// only hpack's exported API, can compare the two on every input.
//
// Nothing outside the module can import this package, and nothing in it is
// used by the codec itself.
package twin

var (
	// HuffmanDecode is the pure-Go twin of hpack.AppendHuffmanDecodeLimit.
	HuffmanDecode func(dst, src []byte, maxLen int) ([]byte, error)
	// HuffmanEncode is the pure-Go twin of hpack.AppendHuffmanString.
	HuffmanEncode func(dst []byte, s string) []byte
	// UseSafeEncoder switches an *hpack.Encoder to its pure-Go twins.
	UseSafeEncoder func(e any)
)
