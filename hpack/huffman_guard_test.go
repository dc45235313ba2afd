package hpack

import (
	"bytes"
	"github.com/metapack/metapack/internal/huffdata"
	"math/rand/v2"
	"testing"

	"github.com/metapack/metapack/internal/guardpage"
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
			got, err := AppendHuffmanDecode(nil, src)
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
	for _, kind := range huffmanGuardInputs {
		for n := 0; n <= 80; n++ {
			for range 20 {
				raw := kind.make(r, n)
				// Both the encoding of raw (valid) and raw itself
				// (mostly invalid) as Huffman input.
				for _, data := range [][]byte{AppendHuffmanString(nil, string(raw)), raw} {
					want, wantErr := xhpack.HuffmanDecodeToString(data)
					for _, src := range [][]byte{in.CopyBefore(data), in.CopyAfter(data)} {
						rooms := []int{len(src)*8/5 + 16, len(want)}
						for _, room := range rooms {
							dst := out.Before(room)[:0]
							got, err := AppendHuffmanDecode(dst, src)
							if (err == nil) != (wantErr == nil) || err == nil && string(got) != want {
								t.Fatalf("%s: decoding %x with room %d: %q, %v; x/net %q, %v", kind.name, data, room, got, err, want, wantErr)
							}
						}
					}
				}
			}
		}
	}
}

// huffmanGuardInputs are the kinds of content the guard-page tests try:
// every Huffman code length, and runs of 30-bit codes at the end.
var huffmanGuardInputs = []struct {
	name string
	make func(r *rand.Rand, n int) []byte
}{
	{"text", func(r *rand.Rand, n int) []byte {
		const s = "abcdefghijklmnopqrstuvwxyz0123456789-_./:;=?&% ABCXYZ"
		b := make([]byte, n)
		for i := range b {
			b[i] = s[r.IntN(len(s))]
		}
		return b
	}},
	{"random", func(r *rand.Rand, n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}},
	{"high", highBytes},
	{"every-length", func(r *rand.Rand, n int) []byte {
		// A byte of each code length from 5 to 30 bits, in turn.
		b := make([]byte, n)
		for i := range b {
			b[i] = byteOfCodeLen[r.IntN(len(byteOfCodeLen))]
		}
		return b
	}},
	{"30-bit-tail", func(r *rand.Rand, n int) []byte {
		// Text, then a run of the 30-bit codes (bytes 10, 13, 22) that
		// reaches the end.
		b := make([]byte, n)
		run := r.IntN(n + 1)
		for i := range b {
			if i >= n-run {
				b[i] = []byte{10, 13, 22}[r.IntN(3)]
			} else {
				b[i] = 'a' + byte(r.IntN(26))
			}
		}
		return b
	}},
}

// byteOfCodeLen holds, for each code length from 5 to 30 bits, a byte
// whose code has that length.
var byteOfCodeLen = func() []byte {
	var seen [31]bool
	var out []byte
	for c := 0; c < 256; c++ {
		if l := huffmanCodeLen(byte(c)); !seen[l] {
			seen[l] = true
			out = append(out, byte(c))
		}
	}
	return out
}()

func huffmanCodeLen(c byte) int { return int(huffdata.HuffmanCodeLen[c]) }
