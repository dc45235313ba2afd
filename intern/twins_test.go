package intern

import (
	"bytes"
	"hash/maphash"
	"math/rand/v2"
	"testing"
)

// checkEqualTwins fails t unless sameBytes, sameBytesSafe and equal, on
// both shapes, agree with bytes.Equal on s and b.
func checkEqualTwins(t *testing.T, s string, b []byte) {
	t.Helper()
	want := bytes.Equal([]byte(s), b)
	if got := equal(s, b); got != want {
		t.Fatalf("equal(%q, %q) = %v, want %v", s, b, got, want)
	}
	if got := equal(s, string(b)); got != want {
		t.Fatalf("equal(%q, string %q) = %v, want %v", s, b, got, want)
	}
	if len(s) != len(b) {
		return
	}
	for _, f := range []struct {
		name string
		got  bool
	}{
		{"sameBytes", sameBytes(s, b)},
		{"sameBytesSafe", sameBytesSafe(s, b)},
		{"sameBytes/string", sameBytes(s, string(b))},
		{"sameBytesSafe/string", sameBytesSafe(s, string(b))},
	} {
		if f.got != want {
			t.Fatalf("%s(%q, %q) = %v, want %v", f.name, s, b, f.got, want)
		}
	}
}

// TestEqualTwins holds the unsafe sameBytes to its bounds-checked twin and
// to bytes.Equal: random and adversarial contents, lengths 0 to 100, equal
// and differing in one bit or one byte at each position, and lengths that
// differ.
func TestEqualTwins(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 2))
	for n := 0; n <= 100; n++ {
		fills := [][]byte{make([]byte, n), bytes.Repeat([]byte{0xff}, n), make([]byte, n)}
		for i := range fills[2] {
			fills[2][i] = byte(r.Uint32())
		}
		for _, fill := range fills {
			s := string(fill)
			checkEqualTwins(t, s, bytes.Clone(fill))
			for pos := range n {
				for _, flip := range []byte{0x01, 0x80, 0xff} {
					b := bytes.Clone(fill)
					b[pos] ^= flip
					checkEqualTwins(t, s, b)
				}
			}
			checkEqualTwins(t, s, append(bytes.Clone(fill), 0))
			if n > 0 {
				checkEqualTwins(t, s, fill[:n-1])
			}
		}
	}
}

var fuzzSeed = maphash.MakeSeed()

// FuzzEqualTwins compares the twins of sameBytes and both shapes of equal
// and seededHash on arbitrary inputs: b is a, or a with one byte changed.
func FuzzEqualTwins(f *testing.F) {
	for _, s := range []string{"", "a", "abc", "abcd", "abcdefg", "abcdefgh", "0123456789abcdef",
		"0123456789abcdefg", "grpc-go/1.72.0 (linux; amd64) custom/3.1", string(make([]byte, 70))} {
		f.Add([]byte(s), uint8(0), uint8(0))
		f.Add([]byte(s), uint8(len(s)/2), uint8(1))
		f.Add([]byte(s), uint8(len(s)), uint8(0x80))
	}
	f.Fuzz(func(t *testing.T, a []byte, pos, flip uint8) {
		b := bytes.Clone(a)
		if int(pos) < len(b) {
			b[pos] ^= flip
		}
		checkEqualTwins(t, string(a), b)
		if seededHash(fuzzSeed, a) != seededHash(fuzzSeed, string(a)) {
			t.Fatalf("seededHash(%q) differs between shapes", a)
		}
	})
}
