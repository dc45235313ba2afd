package hpack

import (
	"errors"
	"fmt"
)

// ErrInvalidHuffman reports Huffman-encoded data that RFC 7541 §5.2 forbids.
// Errors returned for such data match it with errors.Is; the more specific
// ErrHuffmanEOS and ErrHuffmanPadding tell why.
var ErrInvalidHuffman = errors.New("hpack: invalid Huffman-encoded data")

var (
	// ErrHuffmanEOS reports the EOS symbol inside a Huffman-encoded string.
	ErrHuffmanEOS = fmt.Errorf("%w: EOS symbol inside the string", ErrInvalidHuffman)
	// ErrHuffmanPadding reports padding longer than 7 bits, or padding that
	// is not a prefix of EOS (all ones).
	ErrHuffmanPadding = fmt.Errorf("%w: padding is longer than 7 bits or not all ones", ErrInvalidHuffman)
)

// ErrStringLength reports a string longer than the limit the caller set.
var ErrStringLength = errors.New("hpack: string too long")
