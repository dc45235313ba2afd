package headerblock

import (
	"fmt"
	"strings"
	"testing"
)

// TestValidValueWords checks the word-at-a-time validValue against the
// byte loop, with every byte value at every position of values of every
// length up to 24, over a background of valid bytes that straddle the
// thresholds (0x20, 0x7e, 0x80, 0xff).
func TestValidValueWords(t *testing.T) {
	backgrounds := []byte{' ', 'a', '~', 0x80, 0xff, '\t'}
	for _, bg := range backgrounds {
		t.Run(fmt.Sprintf("background=%#x", bg), func(t *testing.T) {
			for n := 0; n <= 24; n++ {
				base := []byte(strings.Repeat(string([]byte{bg}), n))
				if !validValue(string(base)) {
					t.Fatalf("length %d of %#x: invalid", n, bg)
				}
				for pos := 0; pos < n; pos++ {
					for c := 0; c < 256; c++ {
						v := append([]byte(nil), base...)
						v[pos] = byte(c)
						want := (c >= 0x20 && c != 0x7f) || c == '\t'
						if got := validValue(string(v)); got != want || validBytes(string(v)) != want {
							t.Fatalf("length %d, byte %#x at %d: validValue %v, validBytes %v, want %v", n, c, pos, got, validBytes(string(v)), want)
						}
					}
				}
			}
		})
	}
}

// TestValidName checks names byte by byte against RFC 9110's token
// characters without upper case.
func TestValidName(t *testing.T) {
	const token = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyz"
	for c := 0; c < 256; c++ {
		want := strings.IndexByte(token, byte(c)) >= 0
		for _, name := range []string{string([]byte{byte(c)}), "x-" + string([]byte{byte(c)}) + "-y"} {
			if got := validName(name); got != want {
				t.Errorf("validName(%q) = %v, want %v", name, got, want)
			}
		}
	}
	if validName("") {
		t.Error("validName(\"\") = true, want false")
	}
}
