package hcode

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/metapack/metapack/internal/huffcontent"
	xhpack "golang.org/x/net/http2/hpack"
)

// TestHuffmanEncodeTwins compares AppendHuffmanString with its pure-Go
// twin on every length from 0 to 200 of every kind of content, appending
// to a prefix with every spare capacity from 0 to 40 bytes, which takes
// both through their rough-bound, exact-length and grow paths. Both must
// give x/net's bytes and leave the prefix alone.
func TestHuffmanEncodeTwins(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 3))
	const prefix = "pre"
	for _, kind := range huffcontent.Kinds {
		for n := 0; n <= 200; n++ {
			for sample := range 3 {
				s := string(kind.Make(r, n))
				want := xhpack.AppendHuffmanString([]byte(prefix), s)
				for spare := 0; spare <= 40; spare++ {
					for _, f := range []struct {
						name string
						fn   func([]byte, string) []byte
					}{{"AppendHuffmanString", AppendHuffmanString}, {"AppendEncodeSafe", AppendEncodeSafe}} {
						dst := append(make([]byte, 0, len(prefix)+spare), prefix...)
						got := f.fn(dst, s)
						if !bytes.Equal(got, want) {
							t.Fatalf("%s %s n=%d #%d spare=%d: %s(%q) = %x, want %x", kind.Name, f.name, n, sample, spare, f.name, s, got, want)
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
	for _, kind := range huffcontent.Kinds {
		for _, n := range []int{0, 1, 7, 8, 9, 31, 64, 129} {
			s := string(kind.Make(r, n))
			exact := EncodedLen(s)
			for _, room := range []int{exact, exact + 8, 4*n + 8} {
				dst := make([]byte, 0, room)
				allocs := testing.AllocsPerRun(10, func() { dst = AppendEncodeSafe(dst[:0], s) })
				if allocs != 0 || cap(dst) != room {
					t.Errorf("%s n=%d room=%d: %v allocations, cap %d", kind.Name, n, room, allocs, cap(dst))
				}
			}
		}
	}
}

// TestHuffmanEncodeTwinShapes runs the twins on the shapes that drive the
// fast encoder through each of its paths.
func TestHuffmanEncodeTwinShapes(t *testing.T) {
	for i, s := range huffmanEncodeShapes() {
		got, want := AppendHuffmanString(nil, s), AppendEncodeSafe(nil, s)
		if !bytes.Equal(got, want) {
			t.Fatalf("shape %d %q: %x, twin %x", i, s, got, want)
		}
	}
}
