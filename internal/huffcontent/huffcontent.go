// Package huffcontent holds the kinds of string content that the tests of
// the Huffman coder (internal/hcode) and of the codecs that call it (hpack)
// feed it, so that both try the same inputs. Only tests import it.
package huffcontent

import (
	"math/rand/v2"

	"github.com/metapack/metapack/internal/huffdata"
)

// Kinds are the kinds of content: text (the 8-byte steps), random bytes
// and high bytes (the long-code steps), a byte of every code length, and
// runs of the 30-bit codes (bytes 10, 13 and 22), which split a pair,
// anywhere and at the very end.
var Kinds = []struct {
	Name string
	Make func(r *rand.Rand, n int) []byte
}{
	{"text", func(r *rand.Rand, n int) []byte {
		const text = "abcdefghijklmnopqrstuvwxyz0123456789-_./:;=?&% ABCXYZ"
		return fill(n, func(int) byte { return text[r.IntN(len(text))] })
	}},
	{"random", func(r *rand.Rand, n int) []byte {
		return fill(n, func(int) byte { return byte(r.Uint32()) })
	}},
	{"high", func(r *rand.Rand, n int) []byte {
		return fill(n, func(int) byte { return byte(0x80 + r.IntN(0x80)) })
	}},
	{"every-code-length", func(r *rand.Rand, n int) []byte {
		return fill(n, func(int) byte { return byteOfCodeLen[r.IntN(len(byteOfCodeLen))] })
	}},
	{"30-bit-runs", func(r *rand.Rand, n int) []byte {
		// Text with runs of 30-bit codes of random length at random
		// places.
		run := 0
		return fill(n, func(int) byte {
			if run == 0 && r.IntN(6) == 0 {
				run = 1 + r.IntN(6)
			}
			if run > 0 {
				run--
				return []byte{10, 13, 22}[r.IntN(3)]
			}
			return 'a' + byte(r.IntN(26))
		})
	}},
	{"30-bit-tail", func(r *rand.Rand, n int) []byte {
		// Text, then a run of 30-bit codes that reaches the end.
		tail := n - r.IntN(n+1)
		return fill(n, func(i int) byte {
			if i >= tail {
				return []byte{10, 13, 22}[r.IntN(3)]
			}
			return 'a' + byte(r.IntN(26))
		})
	}},
}

func fill(n int, next func(i int) byte) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = next(i)
	}
	return b
}

// byteOfCodeLen holds, for each length that a byte's code has (21 of
// them, from 5 to 30 bits), a byte whose code has that length.
var byteOfCodeLen = func() []byte {
	var seen [31]bool
	var out []byte
	for c := range 256 {
		if l := huffdata.HuffmanCodeLen[c]; !seen[l] {
			seen[l] = true
			out = append(out, byte(c))
		}
	}
	return out
}()
