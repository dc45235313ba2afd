package hpack

import (
	"errors"
	"io"
	"sync"

	mhpack "github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/internal/huffdata"
)

var huffBufPool = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// HuffmanDecode decodes v, a Huffman-coded string (RFC 7541 §5.2), and
// writes the result to w in one Write call, whose results it returns.
// Invalid input gives ErrInvalidHuffman and no Write. A nil w (which
// panics in x/net) discards the result; the decoded length is returned.
func HuffmanDecode(w io.Writer, v []byte) (int, error) {
	bp := huffBufPool.Get().(*[]byte)
	defer huffBufPool.Put(bp)
	b, err := huffDecode(bp, v)
	if err != nil {
		return 0, err
	}
	if w == nil {
		return len(b), nil
	}
	return w.Write(b)
}

// HuffmanDecodeToString returns v, a Huffman-coded string, decoded, or
// ErrInvalidHuffman.
func HuffmanDecodeToString(v []byte) (string, error) {
	bp := huffBufPool.Get().(*[]byte)
	defer huffBufPool.Put(bp)
	b, err := huffDecode(bp, v)
	return string(b), err
}

// AppendHuffmanString appends the Huffman coding of s to dst, padded to a
// whole byte, and returns the extended slice.
func AppendHuffmanString(dst []byte, s string) []byte {
	return mhpack.AppendHuffmanString(dst, s)
}

// HuffmanEncodeLength returns the length in bytes of s's Huffman coding,
// padding included: what AppendHuffmanString appends.
func HuffmanEncodeLength(s string) uint64 {
	var bits uint64
	for i := 0; i < len(s); i++ {
		bits += uint64(huffdata.HuffmanCodeLen[s[i]])
	}
	return (bits + 7) / 8
}

// huffDecode decodes v into *bp's memory, keeping it grown for the pool,
// with metapack's more specific Huffman errors made the one x/net returns.
func huffDecode(bp *[]byte, v []byte) ([]byte, error) {
	b, err := mhpack.AppendHuffmanDecode((*bp)[:0], v, -1)
	if err != nil {
		if errors.Is(err, mhpack.ErrInvalidHuffman) {
			err = ErrInvalidHuffman
		}
		return nil, err
	}
	*bp = b[:0]
	return b, nil
}
