package hcode

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/metapack/metapack/internal/guardpage"
	"github.com/metapack/metapack/internal/huffcontent"
)

// TestHuffmanEncodeAtGuard runs AppendHuffmanString and its twin on every
// length from 0 to 80 of every kind of content, with the string's bytes
// ending at a guard page and again starting right after one, into outputs
// whose capacity ends at a guard page, with every room from the exact
// encoded length to 4*len(s)+8 bytes. With the documented room (the exact
// length plus 8, or 4*len(s)+8, or anything between) neither may
// reallocate; below it they grow. A read or write outside either buffer
// faults.
func TestHuffmanEncodeAtGuard(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 5))
	out := guardpage.NewRegion(t, 1<<12)
	const prefix = "ab"
	for _, kind := range huffcontent.Kinds {
		for n := 0; n <= 80; n++ {
			raw := kind.Make(r, n)
			want := AppendEncodeSafe([]byte(prefix), string(raw))
			for _, place := range []struct {
				name string
				s    string
			}{{"before", guardpage.StringBefore(t, string(raw))}, {"after", guardpage.StringAfter(t, string(raw))}} {
				exact := EncodedLen(place.s)
				for room := exact; room <= 4*n+8; room++ {
					for _, f := range []struct {
						name string
						fn   func([]byte, string) []byte
					}{{"AppendHuffmanString", AppendHuffmanString}, {"AppendEncodeSafe", AppendEncodeSafe}} {
						buf := out.Before(len(prefix) + room)
						dst := append(buf[:0], prefix...)
						got := f.fn(dst, place.s)
						if !bytes.Equal(got, want) {
							t.Fatalf("%s n=%d %s room=%d: %s(%q) = %x, want %x", kind.Name, n, place.name, room, f.name, raw, got, want)
						}
						if room >= exact+8 && &got[0] != &buf[0] {
							t.Fatalf("%s n=%d %s room=%d: %s reallocated", kind.Name, n, place.name, room, f.name)
						}
					}
				}
			}
		}
	}
}
