package hcode

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/metapack/metapack/internal/guardpage"
	"github.com/metapack/metapack/internal/huffcontent"
	xhpack "golang.org/x/net/http2/hpack"
)

// highBytes are bytes whose codes are long (19 to 30 bits): runs of them
// send the decoder into its one-symbol steps.
func highBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(0x80 + r.IntN(0x80))
	}
	return b
}

// TestHuffmanDecodeStepsStayInInput is the regression test for the steps'
// budget: a run of long codes reaching the last 8 bytes of an input of 16
// bytes or more made the steps load 8 bytes with fewer left, up to 3 bytes
// past the input. With the input ending at a guard page, that read faults.
func TestHuffmanDecodeStepsStayInInput(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 1))
	region := guardpage.NewRegion(t, 1<<12)
	for n := 4; n <= 64; n++ {
		for range 50 {
			want := highBytes(r, n)
			enc := AppendHuffmanString(nil, string(want))
			src := region.CopyBefore(enc)
			got, err := AppendHuffmanDecode(nil, src, 0)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("decoding %x: %x, %v; want %x", enc, got, err, want)
			}
		}
	}
}

// TestHuffmanDecodeAtGuard decodes inputs of every length from 0 to 80
// bytes, of every kind of content, with the input ending at a guard page
// and again starting right after one, into outputs whose capacity ends at
// a guard page (exactly the documented room, and exactly the decoded
// length), and compares with x/net.
func TestHuffmanDecodeAtGuard(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 2))
	in := guardpage.NewRegion(t, 1<<12)
	out := guardpage.NewRegion(t, 1<<12)
	for _, kind := range huffcontent.Kinds {
		for n := 0; n <= 80; n++ {
			for range 20 {
				raw := kind.Make(r, n)
				// Both the encoding of raw (valid) and raw itself
				// (mostly invalid) as Huffman input.
				for _, data := range [][]byte{AppendHuffmanString(nil, string(raw)), raw} {
					want, wantErr := xhpack.HuffmanDecodeToString(data)
					for _, src := range [][]byte{in.CopyBefore(data), in.CopyAfter(data)} {
						rooms := []int{len(src)*8/5 + 16, len(want)}
						for _, room := range rooms {
							dst := out.Before(room)[:0]
							got, err := AppendHuffmanDecode(dst, src, 0)
							if (err == nil) != (wantErr == nil) || err == nil && string(got) != want {
								t.Fatalf("%s: decoding %x with room %d: %q, %v; x/net %q, %v", kind.Name, data, room, got, err, want, wantErr)
							}
						}
					}
				}
			}
		}
	}
}
