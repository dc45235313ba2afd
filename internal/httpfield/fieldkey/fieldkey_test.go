package fieldkey

import (
	"testing"

	"github.com/metapack/metapack/internal/httpfield"
	"github.com/metapack/metapack/internal/inlinecheck"
	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/staticdata"
)

// TestPseudo checks that every key, and every byte-sized ID past the
// keys, is classified as httpfield.PseudoOf classifies its name.
func TestPseudo(t *testing.T) {
	pseudos := 0
	for k := range 256 {
		k := staticdata.KeyID(k)
		want := httpfield.Pseudo(0)
		if k < tier.NumKeys {
			want = httpfield.PseudoOf(k.String())
		}
		if want != 0 {
			pseudos++
		}
		if got := Pseudo(k); got != want {
			t.Errorf("Pseudo(%d %q) = %#x, want %#x", k, k.String(), got, want)
		}
	}
	if pseudos != 5 {
		t.Errorf("%d keys are pseudo-header fields, want 5", pseudos)
	}
}

func TestInlining(t *testing.T) {
	inlinecheck.Check(t, ".", "Pseudo")
}
