package hcode

import (
	"errors"
	"fmt"
)

// ErrInvalid reports Huffman-coded data that RFC 7541 §5.2 forbids; ErrEOS
// and ErrPadding wrap it.
var ErrInvalid = errors.New("invalid Huffman-coded data")

var (
	// ErrEOS reports the EOS symbol inside a Huffman-coded string.
	ErrEOS = fmt.Errorf("%w: EOS symbol inside the string", ErrInvalid)
	// ErrPadding reports padding longer than 7 bits, or not all ones.
	ErrPadding = fmt.Errorf("%w: padding is longer than 7 bits or not all ones", ErrInvalid)
	// ErrTooLong reports a decoding longer than the caller's limit.
	ErrTooLong = errors.New("decoded string over the limit")
)
