package hpack

import (
	"math"

	"github.com/metapack/metapack/internal/hcode"
)

// AppendHuffmanDecode appends the decoding of the Huffman-coded src to dst
// and returns the extended buffer. A decoding longer than maxLen bytes
// fails with ErrStringLength, having grown dst only as far as maxLen needs.
// As for every limit in this module, 0 means the default and a negative
// maxLen no limit; here the default is no limit too, since the output is
// bounded by the input already (at most 8/5 of its length). Invalid input (RFC 7541 §5.2: EOS in the
// string, padding over 7 bits or not all ones) yields an error matching
// ErrInvalidHuffman. On error dst's length is left as it was. It does not
// allocate when dst has room for len(src)*8/5+16 more bytes.
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
