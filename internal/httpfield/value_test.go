package httpfield

import (
	"fmt"
	"strings"
	"testing"
)

// TestValidValue checks the word-at-a-time ValidValue and the byte loop
// against x/net's rule (no byte below 0x20 but HTAB, no 0x7f), with every
// byte value at every position of values of every length up to 24, over
// backgrounds of valid bytes that straddle the thresholds (0x20, 0x7e,
// 0x80, 0xff).
func TestValidValue(t *testing.T) {
	for _, bg := range []byte{' ', 'a', '~', 0x80, 0xff, '\t'} {
		t.Run(fmt.Sprintf("background=%#x", bg), func(t *testing.T) {
			for n := 0; n <= 24; n++ {
				base := []byte(strings.Repeat(string([]byte{bg}), n))
				if !ValidValue(string(base)) {
					t.Fatalf("length %d of %#x: invalid", n, bg)
				}
				for pos := range n {
					for c := range 256 {
						v := append([]byte(nil), base...)
						v[pos] = byte(c)
						want := c >= 0x20 && c != 0x7f || c == '\t'
						if got := ValidValue(string(v)); got != want || validBytes(string(v)) != want {
							t.Fatalf("length %d, byte %#x at %d: ValidValue %v, validBytes %v, want %v", n, c, pos, got, validBytes(string(v)), want)
						}
					}
				}
			}
		})
	}
}
