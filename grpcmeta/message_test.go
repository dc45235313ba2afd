package grpcmeta

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestAppendMessage checks Percent-Encoded: Percent-Byte-Unencoded
// is %x20-24 / %x26-7E, everything else is "%" and 2 upper-case HEXDIGIT.
func TestAppendMessage(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"empty", "", ""},
		{"printable", "hello, world ~!", "hello, world ~!"},
		{"percent", "100%", "100%25"},
		{"control", "a\nb\tc\x00", "a%0Ab%09c%00"},
		{"del", "\x7f", "%7F"},
		{"space and tilde stay", " ~", " ~"},
		{"two-byte UTF-8", "é", "%C3%A9"},
		{"three-byte UTF-8", "日本", "%E6%97%A5%E6%9C%AC"},
		{"four-byte UTF-8", "😀", "%F0%9F%98%80"},
		{"invalid UTF-8 kept byte for byte", "\xff\xfe", "%FF%FE"},
		{"already encoded is encoded again", "%41", "%2541"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := AppendMessage([]byte("p"), tt.in); string(got) != "p"+tt.want {
				t.Errorf("AppendMessage(%q) = %q, want %q", tt.in, got[1:], tt.want)
			}
			if got := AppendMessage(nil, []byte(tt.in)); string(got) != tt.want {
				t.Errorf("AppendMessage([]byte %q) = %q, want %q", tt.in, got, tt.want)
			}
			if got := DecodeMessage(nil, tt.want); string(got) != tt.in {
				t.Errorf("DecodeMessage(%q) = %q, want %q", tt.want, got, tt.in)
			}
		})
	}
}

// TestMessageEveryByte encodes each of the 256 byte values alone and
// among plain bytes: it stays or becomes %XX as the grammar says, and
// decodes back.
func TestMessageEveryByte(t *testing.T) {
	for c := range 256 {
		t.Run(fmt.Sprintf("%02X", c), func(t *testing.T) {
			want := string([]byte{byte(c)})
			if c < 0x20 || c > 0x7e || c == '%' {
				want = fmt.Sprintf("%%%02X", c)
			}
			in := []byte{'a', byte(c), 'z'}
			got := AppendMessage(nil, in)
			if string(got) != "a"+want+"z" {
				t.Fatalf("AppendMessage(%q) = %q, want %q", in, got, "a"+want+"z")
			}
			if back := DecodeMessage(nil, got); !bytes.Equal(back, in) {
				t.Fatalf("DecodeMessage(%q) = %q, want %q", got, back, in)
			}
		})
	}
}

// TestDecodeMessage checks the rule that a receiver "MUST NOT
// error or throw away the message": valid %XX sequences decode, in
// either case, and malformed ones stay as they are.
func TestDecodeMessage(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "no escapes", "no escapes"},
		{"upper", "%41%42", "AB"},
		{"lower", "%e6%97%a5", "日"},
		{"mixed case", "%c3%A9", "é"},
		{"lone percent", "%", "%"},
		{"percent and one digit", "%4", "%4"},
		{"not hex", "%zz", "%zz"},
		{"half hex", "%4g", "%4g"},
		{"trailing percent", "100%", "100%"},
		{"percent at end after one", "a%4", "a%4"},
		{"percent percent", "%%41", "%A"},
		{"escape then lone", "%41%", "A%"},
		{"encoded percent", "%25", "%"},
		{"encoded percent not decoded twice", "%2541", "%41"},
		{"sign is no digit", "%+1", "%+1"},
		{"bytes outside ASCII kept", "\xff%41\x00", "\xffA\x00"},
		{"escape at the very end", "ab%7E", "ab~"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DecodeMessage([]byte("p"), tt.in); string(got) != "p"+tt.want {
				t.Errorf("DecodeMessage(%q) = %q, want %q", tt.in, got[1:], tt.want)
			}
			if got := DecodeMessage(nil, []byte(tt.in)); string(got) != tt.want {
				t.Errorf("DecodeMessage([]byte %q) = %q, want %q", tt.in, got, tt.want)
			}
			if got, want := string(DecodeMessage(nil, tt.in)), naiveDecode(tt.in); got != want {
				t.Errorf("DecodeMessage(%q) = %q, naive decoder %q", tt.in, got, want)
			}
		})
	}
}

// TestMessageRoundTrip round-trips random messages: decode(encode(m)) is
// m, and the encoding holds only Percent-Byte-Unencoded bytes and %XX.
func TestMessageRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		m := make([]byte, r.IntN(40))
		for i := range m {
			m[i] = byte(r.Uint32())
		}
		enc := AppendMessage(nil, m)
		for i := 0; i < len(enc); i++ {
			c := enc[i]
			if c == '%' {
				if i+2 >= len(enc) || unhex(enc[i+1]) > 15 || unhex(enc[i+2]) > 15 || enc[i+1] >= 'a' || enc[i+2] >= 'a' {
					t.Fatalf("encoding of %q has a bad escape at %d: %q", m, i, enc)
				}
				i += 2
			} else if c < 0x20 || c > 0x7e {
				t.Fatalf("encoding of %q has byte %#x", m, c)
			}
		}
		if back := DecodeMessage(nil, enc); !bytes.Equal(back, m) {
			t.Fatalf("round trip of %q gave %q", m, back)
		}
	}
}
