package le

import (
	"encoding/binary"
	"testing"

	"github.com/metapack/metapack/internal/inlinecheck"
)

// TestWords compares both loads with encoding/binary at every offset of a
// buffer, from a string and from bytes.
func TestWords(t *testing.T) {
	b := make([]byte, 40)
	for i := range b {
		b[i] = byte(i*37 + 11)
	}
	for i := 0; i+8 <= len(b); i++ {
		if got, want := Uint64(b[i:]), binary.LittleEndian.Uint64(b[i:]); got != want {
			t.Errorf("Uint64 at %d: %#x, want %#x", i, got, want)
		}
		if got, want := Uint64(string(b[i:])), binary.LittleEndian.Uint64(b[i:]); got != want {
			t.Errorf("Uint64 of a string at %d: %#x, want %#x", i, got, want)
		}
		if got, want := Uint32(string(b[i:])), binary.LittleEndian.Uint32(b[i:]); got != want {
			t.Errorf("Uint32 of a string at %d: %#x, want %#x", i, got, want)
		}
	}
}

func TestInlining(t *testing.T) {
	inlinecheck.CheckPrefix(t, ".", "Uint64[", "Uint32[")
}
