package hpack

import (
	"math"

	"github.com/metapack/metapack/internal/hcode"
)

// AppendHuffmanDecode appends the decoding of the Huffman-coded src to dst
// and returns the extended buffer. A decoding longer than maxLen bytes
// fails with ErrStringLength; a negative maxLen means no limit, and so does
// 0, the default, since the input bounds the output (8/5 of its length).
// Invalid input (RFC 7541 §5.2) yields an error matching ErrInvalidHuffman.
// On error dst's length is as it was. It does not allocate when dst has
// room for len(src)*8/5+16 more bytes.
func AppendHuffmanDecode(dst, src []byte, maxLen int) ([]byte, error) {
	if maxLen <= 0 {
		maxLen = math.MaxInt
	}
	return appendHuffmanDecode(dst, src, maxLen)
}

// appendHuffmanDecode is AppendHuffmanDecode where maxLen <= 0 allows nothing.
func appendHuffmanDecode(dst, src []byte, maxLen int) ([]byte, error) {
	dst, err := hcode.AppendDecode(dst, src, maxLen)
	if err != nil {
		err = huffmanError(err)
	}
	return dst, err
}

// huffmanError turns a Huffman coder's error into this package's.
func huffmanError(err error) error {
	switch err {
	case hcode.ErrEOS:
		return errHuffmanEOS
	case hcode.ErrPadding:
		return errHuffmanPadding
	case hcode.ErrTooLong:
		return ErrStringLength
	}
	return err
}

// AppendHuffmanString appends the Huffman coding of s to dst, padded with
// the high bits of EOS as RFC 7541 §5.2 requires, and returns the extended
// buffer. It does not allocate when dst has room for 4*len(s)+8 bytes, or
// for the exact encoded length plus 8.
func AppendHuffmanString(dst []byte, s string) []byte { return hcode.AppendEncode(dst, s) }
