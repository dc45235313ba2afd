package hcode

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/metapack/metapack/internal/huffcontent"
)

// TestHuffmanDecodeTwins compares the fast decoder with its pure-Go twin,
// AppendDecodeSafe, on valid and invalid inputs of every length from
// 0 to 200 and of every kind of content, into dsts with a prefix and every
// spare capacity from 0 to 40, under caps around the decoded length. They
// must agree on every output byte and every error.
func TestHuffmanDecodeTwins(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 3))
	for _, kind := range huffcontent.Kinds {
		for n := 0; n <= 200; n++ {
			raw := kind.Make(r, n)
			for _, data := range [][]byte{AppendHuffmanString(nil, string(raw)), raw} {
				decoded := len(raw) // the length of data's decoding when valid
				for _, maxLen := range []int{math.MaxInt, 0, 1, decoded - 1, decoded, decoded + 1, r.IntN(2*decoded + 2)} {
					if maxLen < 0 {
						continue
					}
					spare := r.IntN(41)
					compareHuffmanDecodeTwins(t, kind.Name, data, spare, maxLen)
				}
			}
		}
	}
}

// compareHuffmanDecodeTwins decodes data with both decoders, after the same
// prefix into dsts with the same spare capacity, and fails t when they
// differ.
func compareHuffmanDecodeTwins(t *testing.T, kind string, data []byte, spare, maxLen int) {
	t.Helper()
	prefix := []byte("pre")
	newDst := func() []byte { return append(make([]byte, 0, len(prefix)+spare), prefix...) }
	fast, fastErr := AppendDecode(newDst(), data, maxLen)
	safe, safeErr := AppendDecodeSafe(newDst(), data, maxLen)
	if fastErr != safeErr || !bytes.Equal(fast, safe) {
		t.Fatalf("%s: decoding %x (spare %d, maxLen %d): fast %q, %v; safe %q, %v", kind, data, spare, maxLen, fast, fastErr, safe, safeErr)
	}
	if !bytes.HasPrefix(safe, prefix) {
		t.Fatalf("%s: decoding %x: the safe twin lost dst's prefix: %q", kind, data, safe)
	}
}

// TestHuffmanDecodeNegativeLimit checks that a negative cap is a cap of 0 for
// both decoders: no panic, ErrStringLength for anything that decodes to a
// byte, and success for the empty string.
func TestHuffmanDecodeNegativeLimit(t *testing.T) {
	for _, maxLen := range []int{-1, math.MinInt} {
		if got, err := AppendDecode(nil, AppendHuffmanString(nil, "a"), maxLen); err != ErrStringLength || len(got) != 0 {
			t.Errorf("maxLen %d on \"a\": %q, %v; want ErrStringLength", maxLen, got, err)
		}
		if got, err := AppendDecode(nil, nil, maxLen); err != nil || len(got) != 0 {
			t.Errorf("maxLen %d on \"\": %q, %v; want no error", maxLen, got, err)
		}
	}
}

// TestAppendHuffmanDecodeNoLimit checks that AppendHuffmanDecode takes a
// maxLen of 0 or less as no limit.
func TestAppendHuffmanDecodeNoLimit(t *testing.T) {
	want := strings.Repeat("no limit ", 100)
	enc := AppendHuffmanString(nil, want)
	for _, maxLen := range []int{0, -1, math.MinInt, len(want)} {
		if got, err := AppendHuffmanDecode(nil, enc, maxLen); err != nil || string(got) != want {
			t.Errorf("maxLen %d: %q, %v", maxLen, got, err)
		}
	}
	if got, err := AppendHuffmanDecode(nil, enc, len(want)-1); err != ErrStringLength || len(got) != 0 {
		t.Errorf("maxLen %d: %q, %v; want ErrStringLength", len(want)-1, got, err)
	}
}

// FuzzHuffmanTwins decodes the fuzzer's bytes as Huffman data, and encodes
// them, with the fast codec and with its pure-Go twins, into dsts with a
// prefix and the fuzzer's spare room, under the fuzzer's cap (65535: none):
// every output byte and every error must agree.
func FuzzHuffmanTwins(f *testing.F) {
	f.Add([]byte("www.example.com"), uint16(0), uint16(math.MaxUint16))
	f.Fuzz(func(t *testing.T, data []byte, spare, limit uint16) {
		maxLen := int(limit)
		if limit == math.MaxUint16 {
			maxLen = math.MaxInt
		}
		compareHuffmanDecodeTwins(t, "fuzz", data, int(spare%64), maxLen)
		dst := func() []byte { return append(make([]byte, 0, 1+int(spare%64)), 'p') }
		fast, safe := AppendEncode(dst(), string(data)), AppendEncodeSafe(dst(), string(data))
		if !bytes.Equal(fast, safe) {
			t.Fatalf("encoding %x: fast %x, safe %x", data, fast, safe)
		}
	})
}
