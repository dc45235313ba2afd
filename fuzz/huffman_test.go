package fuzz

import (
	"bytes"
	"errors"
	"testing"

	"github.com/metapack/metapack/hpack"
	xhpack "golang.org/x/net/http2/hpack"
)

// FuzzHuffman round-trips arbitrary bytes through our Huffman codec,
// compares the encoding with x/net's, and decodes the bytes themselves as
// Huffman data with both decoders: they must agree on validity and output.
func FuzzHuffman(f *testing.F) {
	f.Add([]byte("www.example.com"))
	f.Fuzz(func(t *testing.T, data []byte) {
		enc := hpack.AppendHuffmanString(nil, string(data))
		if want := xhpack.AppendHuffmanString(nil, string(data)); !bytes.Equal(enc, want) {
			t.Fatalf("encoding %x: ours %x, x/net %x", data, enc, want)
		}
		dec, err := hpack.AppendHuffmanDecode(nil, enc, -1)
		if err != nil || !bytes.Equal(dec, data) {
			t.Fatalf("round trip of %x: %x, %v", data, dec, err)
		}
		// The raw bytes as Huffman input.
		ours, ourErr := hpack.AppendHuffmanDecode([]byte("p"), data, -1)
		theirs, xnetErr := xhpack.HuffmanDecodeToString(data)
		if (ourErr == nil) != (xnetErr == nil) {
			t.Fatalf("decoding %x: ours %v, x/net %v", data, ourErr, xnetErr)
		}
		// Into a dst with room, which short inputs decode on a path of
		// their own: the same result.
		roomy, roomyErr := hpack.AppendHuffmanDecode(append(make([]byte, 0, 2*len(data)+40), 'p'), data, -1)
		if !errors.Is(roomyErr, ourErr) || !bytes.Equal(roomy, ours) {
			t.Fatalf("decoding %x with room: %q, %v; without: %q, %v", data, roomy, roomyErr, ours, ourErr)
		}
		if ourErr != nil {
			if !errors.Is(ourErr, hpack.ErrInvalidHuffman) || string(ours) != "p" {
				t.Fatalf("decoding %x: error %v, dst %q", data, ourErr, ours)
			}
			return
		}
		if string(ours[1:]) != theirs {
			t.Fatalf("decoding %x: ours %q, x/net %q", data, ours[1:], theirs)
		}
		// A cap below the length fails without writing past it (a cap
		// of 0 is none).
		if len(theirs) > 1 {
			capped, err := hpack.AppendHuffmanDecode(nil, data, len(theirs)-1)
			if !errors.Is(err, hpack.ErrStringLength) || len(capped) != 0 {
				t.Fatalf("limit %d on %d bytes: %v, %q", len(theirs)-1, len(theirs), err, capped)
			}
		}
	})
}
