//go:build !purego

package hcode

import (
	"testing"

	"github.com/metapack/metapack/internal/huffdata"
)

// TestHuffmanDecodeRoundsFromBoundary starts decodeHuffmanRounds at every
// code boundary of some inputs, byte-aligned or not, and checks what it
// decodes and the position it reports.
func TestHuffmanDecodeRoundsFromBoundary(t *testing.T) {
	for _, s := range []string{
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36",
		"\x00\xff\x10binary\x80\x81 and text\xfe",
		"short",
	} {
		src := AppendHuffmanString(nil, s)
		var at uint // bit position of code k
		for k := range len(s) + 1 {
			out := make([]byte, 2*len(s)+fastRoom)
			o, pos, err := decodeHuffmanRounds(out, 0, src, at)
			if err != nil {
				t.Fatalf("%q from code %d: %v", s, k, err)
			}
			// pos is a code boundary, and what was decoded is the codes
			// between at and pos.
			var end uint
			n := 0
			for end = at; end < pos && k+n < len(s); n++ {
				end += uint(huffdata.HuffmanCodeLen[s[k+n]])
			}
			if end != pos || string(out[:o]) != s[k:k+n] || (pos == at && o != 0) {
				t.Fatalf("%q from code %d (bit %d): got %q to bit %d, want %q to bit %d", s, k, at, out[:o], pos, s[k:k+n], end)
			}
			if k < len(s) {
				at += uint(huffdata.HuffmanCodeLen[s[k]])
			}
		}
	}
}
