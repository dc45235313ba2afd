package hcode

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	xhpack "golang.org/x/net/http2/hpack"
)

// huffmanEncodeShapes returns strings that drive the encoder through each of
// its paths and the switches between them: text in 8-byte steps, long codes
// in 4-byte steps, pairs with a 30-bit code, and every tail length.
func huffmanEncodeShapes() []string {
	const text = "abcdefghijklmnopqrstuvwxyz0123456789-_./:; ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	long := []byte{0x80, 0x99, 0xc3, 0xfe, 0xff, 0x01, 0x1f, 0x7f}
	rare := []byte{'\n', '\r', 0x16} // the 30-bit codes
	pick := func(rng *rand.Rand, kind int) byte {
		switch kind {
		case 0:
			return text[rng.IntN(len(text))]
		case 1:
			return long[rng.IntN(len(long))]
		case 2:
			return rare[rng.IntN(len(rare))]
		default:
			return byte(rng.UintN(256))
		}
	}
	rng := rand.New(rand.NewPCG(7, 8))
	var out []string
	for n := range 65 {
		for range 40 {
			b := make([]byte, n)
			// Runs of one kind, so that the encoder switches between paths
			// at all offsets.
			kind, left := 0, 0
			for i := range b {
				if left == 0 {
					kind, left = rng.IntN(4), 1+rng.IntN(12)
				}
				b[i] = pick(rng, kind)
				left--
			}
			out = append(out, string(b))
		}
	}
	// A 30-bit code at every position of text and of long codes.
	for n := 1; n <= 40; n++ {
		for pos := range n {
			for _, fill := range []byte{'a', 0xfe} {
				b := bytes.Repeat([]byte{fill}, n)
				b[pos] = rare[pos%len(rare)]
				out = append(out, string(b))
			}
		}
	}
	// Every byte next to every kind of neighbour.
	for c := range 256 {
		for _, pad := range []string{"", "x", "abcdefg", "\xfe\xfe\xfe", strings.Repeat("\x80", 13)} {
			out = append(out, pad+string([]byte{byte(c)})+pad, strings.Repeat(string([]byte{byte(c)}), 17)+pad)
		}
	}
	return out
}

func TestHuffmanEncodeShapesMatchXnet(t *testing.T) {
	for _, s := range huffmanEncodeShapes() {
		want := xhpack.AppendHuffmanString([]byte("prefix"), s)
		if got := AppendHuffmanString([]byte("prefix"), s); !bytes.Equal(got, want) {
			t.Fatalf("AppendHuffmanString(%q) = %x, x/net gives %x", s, got, want)
		}
	}
}

// TestHuffmanEncodeStaysInRoom checks the documented contract: with room for
// the exact encoded length plus 8 bytes, or for 4*len(s)+8 bytes, the encoder
// neither allocates nor writes past that room.
func TestHuffmanEncodeStaysInRoom(t *testing.T) {
	const canary = 0xa5
	for _, s := range huffmanEncodeShapes() {
		exact := EncodedLen(s)
		for _, room := range []int{exact + 8, 4*len(s) + 8} {
			const prefix = 3
			mem := bytes.Repeat([]byte{canary}, prefix+room+64)
			dst := mem[: prefix : prefix+room]
			got := AppendHuffmanString(dst, s)
			if &got[0] != &mem[0] {
				t.Fatalf("%q: the encoder reallocated with %d bytes of room", s, room)
			}
			if want := xhpack.AppendHuffmanString(mem[:prefix:prefix], s); !bytes.Equal(got, want) {
				t.Fatalf("%q: got %x, want %x", s, got, want)
			}
			for i, c := range mem[prefix+room:] {
				if c != canary {
					t.Fatalf("%q: with %d bytes of room, wrote byte %d past it", s, room, i)
				}
			}
		}
	}
}

// TestHuffmanEncodeRandomMatchesXnet compares the encoder with x/net on
// random strings of every length up to 64 (every tail length after every
// number of 8-byte steps), drawn from all 256 byte values and from mixes that
// make the encoder switch between its text and long-code paths at random.
func TestHuffmanEncodeRandomMatchesXnet(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const text = "abcdefghijklmnopqrstuvwxyz0123456789 -_./:;=ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	for n := 0; n <= 64; n++ {
		for range 300 {
			b := make([]byte, n)
			mix := rng.IntN(3)
			for i := range b {
				switch {
				case mix == 0, mix == 1 && rng.IntN(4) == 0:
					b[i] = byte(rng.UintN(256))
				case mix == 2 && rng.IntN(32) == 0:
					b[i] = "\n\r\x16"[rng.IntN(3)] // the 30-bit codes
				default:
					b[i] = text[rng.IntN(len(text))]
				}
			}
			s := string(b)
			want := xhpack.AppendHuffmanString(nil, s)
			if got := AppendHuffmanString(nil, s); !bytes.Equal(got, want) {
				t.Fatalf("AppendHuffmanString(%q) = %x, x/net gives %x", s, got, want)
			}
		}
	}
	// Every byte value at every position of a 17-byte string.
	for c := range 256 {
		for pos := range 17 {
			b := []byte(strings.Repeat("e", 17))
			b[pos] = byte(c)
			s := string(b)
			want := xhpack.AppendHuffmanString(nil, s)
			if got := AppendHuffmanString(nil, s); !bytes.Equal(got, want) {
				t.Fatalf("AppendHuffmanString(%q) = %x, x/net gives %x", s, got, want)
			}
		}
	}
}
