package intern

import "testing"

func TestEqual(t *testing.T) {
	base := []byte("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
	for n := 0; n <= len(base); n++ {
		s := string(base[:n])
		if !equal(s, base[:n]) {
			t.Fatalf("equal(%q) = false", s)
		}
		if n > 0 && equal(s, base[:n-1]) {
			t.Fatalf("equal with different lengths %d", n)
		}
		for i := 0; i < n; i++ {
			b := []byte(s)
			b[i] ^= 0x20
			if equal(s, b) {
				t.Fatalf("equal(%q, %q) = true", s, b)
			}
		}
	}
}
