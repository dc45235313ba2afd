package hpack

import (
	"errors"
	"io"
	"sync"

	mhpack "github.com/metapack/metapack/hpack"
)

var huffBufPool = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// HuffmanDecode decodes the string in v and writes the expanded
// result to w, returning the number of bytes written to w and the
// Write call's return value. At most one Write call is made.
// Invalid input (RFC 7541 §5.2) gives ErrInvalidHuffman and no Write.
func HuffmanDecode(w io.Writer, v []byte) (int, error) {
	bp := huffBufPool.Get().(*[]byte)
	defer huffBufPool.Put(bp)
	b, err := mhpack.AppendHuffmanDecode((*bp)[:0], v)
	if err != nil {
		return 0, huffmanErr(err)
	}
	*bp = b[:0]
	return w.Write(b)
}

// HuffmanDecodeToString decodes the string in v.
func HuffmanDecodeToString(v []byte) (string, error) {
	bp := huffBufPool.Get().(*[]byte)
	defer huffBufPool.Put(bp)
	b, err := mhpack.AppendHuffmanDecode((*bp)[:0], v)
	if err != nil {
		return "", huffmanErr(err)
	}
	*bp = b[:0]
	return string(b), nil
}

// AppendHuffmanString appends s, as encoded in Huffman codes, to dst
// and returns the extended buffer.
func AppendHuffmanString(dst []byte, s string) []byte {
	return mhpack.AppendHuffmanString(dst, s)
}

// HuffmanEncodeLength returns the number of bytes required to encode
// s in Huffman codes. The result is round up to byte boundary.
func HuffmanEncodeLength(s string) uint64 {
	return mhpack.HuffmanEncodeLength(s)
}

// huffmanErr turns metapack's more specific Huffman errors into the one
// sentinel x/net returns.
func huffmanErr(err error) error {
	if errors.Is(err, mhpack.ErrInvalidHuffman) {
		return ErrInvalidHuffman
	}
	return err
}
