package hpack

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/metapack/metapack/internal/huffdata"
	xhpack "golang.org/x/net/http2/hpack"
)

// encContentKinds are the kinds of string content the encoder's twin and
// guard-page tests try: text (the 8-byte steps), random bytes and high
// bytes (the long-code steps), a byte of every code length, and runs of
// the 30-bit codes (bytes 10, 13 and 22), which split a pair, anywhere and
// at the very end.
var encContentKinds = []struct {
	name string
	make func(r *rand.Rand, n int) []byte
}{
	{"text", func(r *rand.Rand, n int) []byte {
		const text = "abcdefghijklmnopqrstuvwxyz0123456789-_./:;=?&% ABCXYZ"
		return encFill(n, func(int) byte { return text[r.IntN(len(text))] })
	}},
	{"random", func(r *rand.Rand, n int) []byte {
		return encFill(n, func(int) byte { return byte(r.Uint32()) })
	}},
	{"high", func(r *rand.Rand, n int) []byte {
		return encFill(n, func(int) byte { return byte(0x80 + r.IntN(0x80)) })
	}},
	{"every-code-length", func(r *rand.Rand, n int) []byte {
		return encFill(n, func(int) byte { return encByteOfCodeLen[r.IntN(len(encByteOfCodeLen))] })
	}},
	{"30-bit-runs", func(r *rand.Rand, n int) []byte {
		// Text with runs of 30-bit codes of random length at random
		// places.
		run := 0
		return encFill(n, func(int) byte {
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
		return encFill(n, func(i int) byte {
			if i >= tail {
				return []byte{10, 13, 22}[r.IntN(3)]
			}
			return 'a' + byte(r.IntN(26))
		})
	}},
}

func encFill(n int, next func(i int) byte) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = next(i)
	}
	return b
}

// encByteOfCodeLen holds, for each length that a byte's code has (21 of
// them, from 5 to 30 bits), a byte whose code has that length.
var encByteOfCodeLen = func() []byte {
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

// TestHuffmanEncodeTwins compares AppendHuffmanString with its pure-Go
// twin on every length from 0 to 200 of every kind of content, appending
// to a prefix with every spare capacity from 0 to 40 bytes, which takes
// both through their rough-bound, exact-length and grow paths. Both must
// give x/net's bytes and leave the prefix alone.
func TestHuffmanEncodeTwins(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 3))
	const prefix = "pre"
	for _, kind := range encContentKinds {
		for n := 0; n <= 200; n++ {
			for sample := range 3 {
				s := string(kind.make(r, n))
				want := xhpack.AppendHuffmanString([]byte(prefix), s)
				for spare := 0; spare <= 40; spare++ {
					for _, f := range []struct {
						name string
						fn   func([]byte, string) []byte
					}{{"AppendHuffmanString", AppendHuffmanString}, {"appendHuffmanStringSafe", appendHuffmanStringSafe}} {
						dst := append(make([]byte, 0, len(prefix)+spare), prefix...)
						got := f.fn(dst, s)
						if !bytes.Equal(got, want) {
							t.Fatalf("%s %s n=%d #%d spare=%d: %s(%q) = %x, want %x", kind.name, f.name, n, sample, spare, f.name, s, got, want)
						}
					}
				}
			}
		}
	}
}

// TestHuffmanEncodeSafeAllocs checks that the twin keeps
// AppendHuffmanString's allocation contract: none with room for
// 4*len(s)+8 bytes, or for the exact encoded length.
func TestHuffmanEncodeSafeAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 4))
	for _, kind := range encContentKinds {
		for _, n := range []int{0, 1, 7, 8, 9, 31, 64, 129} {
			s := string(kind.make(r, n))
			exact := int(HuffmanEncodeLength(s))
			for _, room := range []int{exact, exact + 8, 4*n + 8} {
				dst := make([]byte, 0, room)
				allocs := testing.AllocsPerRun(10, func() { dst = appendHuffmanStringSafe(dst[:0], s) })
				if allocs != 0 || cap(dst) != room {
					t.Errorf("%s n=%d room=%d: %v allocations, cap %d", kind.name, n, room, allocs, cap(dst))
				}
			}
		}
	}
}

// TestHuffmanEncodeTwinShapes runs the twins on the shapes that drive the
// fast encoder through each of its paths.
func TestHuffmanEncodeTwinShapes(t *testing.T) {
	for i, s := range huffmanEncodeShapes() {
		got, want := AppendHuffmanString(nil, s), appendHuffmanStringSafe(nil, s)
		if !bytes.Equal(got, want) {
			t.Fatalf("shape %d %q: %x, twin %x", i, s, got, want)
		}
	}
}
