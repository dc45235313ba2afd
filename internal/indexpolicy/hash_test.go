package indexpolicy

import "testing"

// TestValueHashReadsEveryByte: changing any one byte of a value, at any
// length up to 100, changes its hash, as does its length.
func TestValueHashReadsEveryByte(t *testing.T) {
	for n := 0; n <= 100; n++ {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('a' + i%26)
		}
		h := ValueHash(string(b))
		if n > 0 && ValueHash(string(b[:n-1])) == h {
			t.Errorf("len %d: the same hash as its prefix", n)
		}
		for i := range b {
			b[i] ^= 0x20
			if ValueHash(string(b)) == h {
				t.Errorf("len %d: byte %d does not change the hash", n, i)
			}
			b[i] ^= 0x20
		}
	}
}
