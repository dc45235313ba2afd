package hcode

import (
	"bytes"
	"encoding/hex"
	"errors"
	"github.com/metapack/metapack/internal/huffdata"
	xhpack "golang.org/x/net/http2/hpack"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// huffmanSamples are inputs the Huffman tests run on: header-like text, every
// byte alone, and random bytes (which reach the long codes).
func huffmanSamples() []string {
	s := []string{
		"", "a", "www.example.com", "no-cache", "custom-key", "custom-value",
		"Mon, 21 Oct 2013 20:13:21 GMT", "https://www.example.com",
		"foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1",
		"application/grpc", "grpc-go/1.60.0", "\x00\xff\xfe\x80",
		strings.Repeat("z", 1000),
	}
	for b := range 256 {
		s = append(s, string([]byte{byte(b)}), strings.Repeat(string([]byte{byte(b)}), 9))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 200 {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.UintN(256))
		}
		s = append(s, string(b))
	}
	return s
}

func TestHuffmanEncodeMatchesXnet(t *testing.T) {
	for _, s := range huffmanSamples() {
		got := AppendHuffmanString([]byte("prefix"), s)
		want := xhpack.AppendHuffmanString([]byte("prefix"), s)
		if !bytes.Equal(got, want) {
			t.Fatalf("AppendHuffmanString(%q) = %x, x/net gives %x", s, got, want)
		}
		if g, w := uint64(EncodedLen(s)), xhpack.HuffmanEncodeLength(s); g != w {
			t.Fatalf("EncodedLen(%q) = %d, x/net gives %d", s, g, w)
		}
	}
}

func TestHuffmanRoundTrip(t *testing.T) {
	for _, s := range huffmanSamples() {
		enc := xhpack.AppendHuffmanString(nil, s)
		got, err := AppendHuffmanDecode([]byte("prefix"), enc, 0)
		if err != nil || string(got) != "prefix"+s {
			t.Fatalf("AppendHuffmanDecode(%x) = %q, %v; want %q", enc, got, err, "prefix"+s)
		}
	}
}

// TestHuffmanDecodeRFCExamples checks the Huffman strings of RFC 7541
// Appendix C.4 and C.6.
func TestHuffmanDecodeRFCExamples(t *testing.T) {
	tests := []struct{ hex, want string }{
		{"f1e3c2e5f23a6ba0ab90f4ff", "www.example.com"},
		{"a8eb10649cbf", "no-cache"},
		{"25a849e95ba97d7f", "custom-key"},
		{"25a849e95bb8e8b4bf", "custom-value"},
		{"6402", "302"},
		{"aec3771a4b", "private"},
		{"d07abe941054d444a8200595040b8166e082a62d1bff", "Mon, 21 Oct 2013 20:13:21 GMT"},
		{"9d29ad171863c78f0b97c8e9ae82ae43d3", "https://www.example.com"},
		{"640eff", "307"},
		{"9bd9ab", "gzip"},
		{"94e7821dd7f2e6c7b335dfdfcd5b3960d5af27087f3672c1ab270fb5291f9587316065c003ed4ee5b1063d5007", "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1"},
	}
	for _, tt := range tests {
		src, _ := hex.DecodeString(tt.hex)
		got, err := AppendHuffmanDecode(nil, src, 0)
		if err != nil || string(got) != tt.want {
			t.Errorf("decode %s = %q, %v; want %q", tt.hex, got, err, tt.want)
		}
		if enc := AppendHuffmanString(nil, tt.want); !bytes.Equal(enc, src) {
			t.Errorf("encode %q = %x, want %s", tt.want, enc, tt.hex)
		}
	}
}

func TestHuffmanDecodeInvalid(t *testing.T) {
	eos := []byte{0xff, 0xff, 0xff, 0xfc} // 30 ones then 00: EOS, then 2 bits of bad padding
	tests := []struct {
		name string
		src  []byte
		want error
	}{
		{"EOS alone", []byte{0xff, 0xff, 0xff, 0xff}, ErrEOS},
		{"EOS after a symbol", append([]byte{0x1f}, 0xff, 0xff, 0xff, 0xff), ErrEOS}, // '0' then EOS
		{"EOS then bad padding", eos, ErrEOS},
		{"padding of 8 ones", []byte{0xff}, ErrPadding},
		{"padding of 8 ones after a symbol", []byte{0x1f, 0xff}, ErrPadding}, // "0" + 3 ones, then 8 ones
		{"padding not all ones", []byte{0x00}, ErrPadding},                   // '0' then 000
		{"padding with a zero", []byte{0x1e}, ErrPadding},                    // "0" then 110
		{"EOS in a long input", huffmanBits(strings.Repeat("a", 20)+"\x00"+strings.Repeat("b", 20), true), ErrEOS},
		{"EOS late in a long input", huffmanBits(strings.Repeat("x", 40)+"\x00"+"y", true), ErrEOS},
	}
	for _, tt := range tests {
		got, err := AppendHuffmanDecode([]byte("keep"), tt.src, 0)
		if !errors.Is(err, tt.want) || !errors.Is(err, ErrInvalidHuffman) {
			t.Errorf("%s: error %v, want %v", tt.name, err, tt.want)
		}
		if string(got) != "keep" {
			t.Errorf("%s: dst = %q after an error, want it unchanged", tt.name, got)
		}
		// x/net must reject the same input.
		if _, xerr := xhpack.HuffmanDecodeToString(tt.src); xerr == nil {
			t.Errorf("%s: x/net accepts %x", tt.name, tt.src)
		}
	}
}

// huffmanBits encodes s, with the EOS code in place of every NUL byte when
// eos is set, and pads with ones.
func huffmanBits(s string, eos bool) []byte {
	var out []byte
	var acc uint64
	var nb uint
	for i := 0; i < len(s); i++ {
		sym := int(s[i])
		if eos && sym == 0 {
			sym = huffdata.HuffmanEOS
		}
		acc = acc<<huffdata.HuffmanCodeLen[sym] | uint64(huffdata.HuffmanCodes[sym])
		nb += uint(huffdata.HuffmanCodeLen[sym])
		for nb >= 8 {
			out = append(out, byte(acc>>(nb-8)))
			nb -= 8
		}
	}
	if nb > 0 {
		out = append(out, byte(acc<<(8-nb))|byte(0xff>>nb))
	}
	return out
}

func TestHuffmanDecodeLimit(t *testing.T) {
	s := strings.Repeat("abcdefgh", 64) // 512 bytes
	enc := AppendHuffmanString(nil, s)
	for _, limit := range []int{0, 1, 7, 8, 100, 511} {
		dst := make([]byte, 3, 3+limit) // room for exactly the limit
		got, err := AppendDecode(dst, enc, limit)
		if !errors.Is(err, ErrStringLength) {
			t.Fatalf("limit %d: error %v, want ErrStringLength", limit, err)
		}
		if len(got) != 3 {
			t.Fatalf("limit %d: dst grew to %d after the error", limit, len(got))
		}
	}
	got, err := AppendDecode(nil, enc, 512)
	if err != nil || string(got) != s {
		t.Fatalf("limit equal to length: %v", err)
	}
}

// TestHuffmanDecodeLimitWritesNothingPast decodes into a dst whose backing
// array goes on past the cap, marked: whatever the limit, nothing at or
// past dst[len(dst)+maxLen] may change, and the result must be the whole
// string or ErrStringLength.
func TestHuffmanDecodeLimitWritesNothingPast(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	random := make([]byte, 300)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	inputs := map[string]string{
		"text":   strings.Repeat("Mozilla/5.0 (X11; Linux x86_64) ", 10),
		"digits": strings.Repeat("0123456789", 30),
		"random": string(random),
	}
	const mark = 0xa5
	for name, s := range inputs {
		enc := AppendHuffmanString(nil, s)
		for limit := 0; limit <= len(s)+2; limit += 1 + limit/16 {
			backing := bytes.Repeat([]byte{mark}, 3+limit+64)
			got, err := AppendDecode(backing[:3], enc, limit)
			for i, c := range backing[3+limit:] {
				if c != mark {
					t.Fatalf("%s, limit %d: byte %d past the limit written", name, limit, i)
				}
			}
			switch {
			case limit < len(s):
				if !errors.Is(err, ErrStringLength) || len(got) != 3 {
					t.Fatalf("%s, limit %d of %d: %v, %d bytes", name, limit, len(s), err, len(got))
				}
			case err != nil || string(got[3:]) != s:
				t.Fatalf("%s, limit %d of %d: %v, %q", name, limit, len(s), err, got[3:])
			}
		}
	}
}

func TestHuffmanNoAllocs(t *testing.T) {
	s := "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko)"
	enc := AppendHuffmanString(nil, s)
	buf := make([]byte, 0, 1024)
	if n := testing.AllocsPerRun(100, func() { buf = AppendHuffmanString(buf[:0], s) }); n != 0 {
		t.Errorf("AppendHuffmanString allocates %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() { buf, _ = AppendHuffmanDecode(buf[:0], enc, 0) }); n != 0 {
		t.Errorf("AppendHuffmanDecode allocates %v times", n)
	}
}

// TestHuffmanDecodeMatchesXnet decodes arbitrary bytes of every length up
// to 48 (valid and invalid Huffman data, ending in every way the rounds,
// the tail and the careful path can meet) with destinations of several
// sizes, and checks the result and the validity against x/net.
func TestHuffmanDecodeMatchesXnet(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	text := "abcdefghijklmnopqrstuvwxyz0123456789-_./:;=ABCDEFGHIJKLMNOPQRSTUVWXYZ "
	inputs := [][]byte{}
	for n := range 48 {
		for range 40 {
			raw := make([]byte, n)
			for i := range raw {
				raw[i] = byte(rng.UintN(256))
			}
			inputs = append(inputs, raw)
			// Encoded text, cut at n bytes: valid, or a truncated code.
			var s []byte
			for len(s) < 2*n {
				s = append(s, text[rng.IntN(len(text))])
			}
			enc := AppendHuffmanString(nil, string(s))
			inputs = append(inputs, enc[:min(n, len(enc))])
			// Valid with the padding turned into a non-one bit.
			if len(enc) > 0 && n > 0 {
				bad := append([]byte(nil), enc[:min(n, len(enc))]...)
				bad[len(bad)-1] &^= 1
				inputs = append(inputs, bad)
			}
		}
	}
	for _, in := range inputs {
		want, xerr := xhpack.HuffmanDecodeToString(in)
		for _, room := range []int{-1, 0, 1, 16, 1000} {
			var dst []byte
			if room >= 0 {
				dst = make([]byte, 2, 2+len(want)+room)
			} else {
				dst = []byte{1, 2}
			}
			got, err := AppendHuffmanDecode(dst, in, 0)
			if (err == nil) != (xerr == nil) {
				t.Fatalf("decoding %x (room %d): error %v, x/net %v", in, room, err, xerr)
			}
			if err != nil {
				if !errors.Is(err, ErrInvalidHuffman) || len(got) != 2 {
					t.Fatalf("decoding %x (room %d): error %v with %d bytes", in, room, err, len(got))
				}
				continue
			}
			if string(got[2:]) != want {
				t.Fatalf("decoding %x (room %d): %q, x/net %q", in, room, got[2:], want)
			}
		}
	}
}

// TestHuffmanDecodeDocumentedRoom checks the no-allocation promise of
// AppendHuffmanDecode at exactly the room it documents, len(src)*8/5+16,
// for inputs of every length up to 200 bytes.
func TestHuffmanDecodeDocumentedRoom(t *testing.T) {
	for _, s := range huffmanSamples() {
		enc := AppendHuffmanString(nil, s)
		dst := make([]byte, 0, len(enc)*8/5+16)
		var got []byte
		var err error
		if n := testing.AllocsPerRun(5, func() { got, err = AppendHuffmanDecode(dst, enc, 0) }); n != 0 {
			t.Fatalf("decoding %d bytes with the documented room allocates %v times", len(enc), n)
		}
		if err != nil || string(got) != s {
			t.Fatalf("decoding %x: %q, %v", enc, got, err)
		}
	}
}

// TestHuffmanDecodeLongTables checks decodeLong on every code longer than
// the first-level table's index, followed by every kind of bits: the
// symbol and the length, or zero for EOS, from the code alone.
func TestHuffmanDecodeLongTables(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for sym := range huffdata.HuffmanEOS + 1 {
		n := uint(huffdata.HuffmanCodeLen[sym])
		if n <= huffdata.HuffmanFastBits {
			if e := huffdata.HuffmanDecodeFast[huffdata.HuffmanCodes[sym]<<(huffdata.HuffmanFastBits-n)]; e&fastCountMask == 0 {
				t.Errorf("symbol %d (%d bits): first-level entry %#x is long", sym, n, e)
			}
			continue
		}
		code := uint64(huffdata.HuffmanCodes[sym]) << (64 - n)
		if e := huffdata.HuffmanDecodeFast[code>>fastShift]; e != 0 {
			t.Errorf("symbol %d (%d bits): first-level entry %#x, want 0", sym, n, e)
		}
		for _, tail := range []uint64{0, math.MaxUint64, rng.Uint64(), rng.Uint64(), rng.Uint64()} {
			buf := code | tail>>n
			e := decodeLong(buf)
			if sym == huffdata.HuffmanEOS {
				if e != 0 {
					t.Errorf("EOS then %#x: entry %#x, want 0", tail, e)
				}
				continue
			}
			want := uint32(n) | 1<<huffdata.HuffmanFastCountShift | uint32(sym)<<huffdata.HuffmanFastSym1Shift
			if e != want {
				t.Errorf("symbol %d (%d bits) then %#x: entry %#x, want %#x", sym, n, tail, e, want)
			}
		}
	}
}

// TestHuffmanDecodeWideEntries decodes strings of codes whose first-level
// entries consume all 13 index bits (13-bit codes, and 6-bit codes next to
// 7-bit ones), so that rounds of four lookups take the most bits they can,
// mixed with 14- and 15-bit codes, which leave the buffer just short of
// what such a round takes: the refill thresholds must allow for it, in the
// rounds and in the tail.
func TestHuffmanDecodeWideEntries(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	alphabet := "$@[]~" + "AB=" + "^}<`{" // 13 bits; 6, 7 and 6; 14 and 15
	for n := range 300 {
		for range 20 {
			s := make([]byte, n)
			for i := range s {
				s[i] = alphabet[rng.IntN(len(alphabet))]
			}
			enc := AppendHuffmanString(nil, string(s))
			got, err := AppendHuffmanDecode([]byte("p"), enc, 0)
			if err != nil || string(got) != "p"+string(s) {
				t.Fatalf("decoding %x: %q, %v; want %q", enc, got, err, s)
			}
		}
	}
}

// TestHuffmanDecodeLongRuns decodes strings that switch between runs of
// long codes (bytes from 0x80 up and control bytes: 20 to 30 bits) and
// runs of text, of every length to 400, so that the rounds hand over to
// the one-symbol steps and back at every kind of place, and the steps stop
// on their budget, near the end of the input and near the end of the
// room. The same strings with an EOS put in among the codes must fail with
// ErrEOS, wherever the EOS falls.
func TestHuffmanDecodeLongRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	text := "abcdefghijklmnopqrstuvwxyz0123456789-_./:;=ABCXYZ "
	for n := range 400 {
		for range 4 {
			s := make([]byte, 0, n)
			for len(s) < n {
				run, long := 1+rng.IntN(80), rng.IntN(2) == 0
				for k := 0; k < run && len(s) < n; k++ {
					switch {
					case !long:
						s = append(s, text[rng.IntN(len(text))])
					case rng.IntN(8) == 0:
						s = append(s, byte(1+rng.IntN(31))) // control bytes: 23 to 30 bits
					default:
						s = append(s, byte(0x80+rng.IntN(128)))
					}
				}
			}
			enc := AppendHuffmanString(nil, string(s))
			for _, dst := range [][]byte{
				nil,
				make([]byte, 1, 1+len(enc)*8/5+16), // the documented room
				make([]byte, 1, 1+len(s)),          // just the room for s
			} {
				got, err := AppendHuffmanDecode(dst, enc, 0)
				if err != nil || !bytes.Equal(got[len(dst):], s) {
					t.Fatalf("decoding %x (room %d): %x, %v; want %x", enc, cap(dst)-len(dst), got[len(dst):], err, s)
				}
			}
			for range 3 {
				k := rng.IntN(len(s) + 1)
				bad := huffmanBits(string(s[:k])+"\x00"+string(s[k:]), true)
				got, err := AppendHuffmanDecode([]byte("keep"), bad, 0)
				if !errors.Is(err, ErrEOS) || string(got) != "keep" {
					t.Fatalf("decoding %x (EOS after %d of %d codes): %v, dst %q", bad, k, len(s), err, got)
				}
			}
		}
	}
}
