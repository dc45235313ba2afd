package fuzz

import (
	"encoding/hex"
	"testing"

	"github.com/metapack/metapack/mdelem"
	xhpack "golang.org/x/net/http2/hpack"
)

// TestIntentionalDifferences shows each documented difference from x/net on
// a concrete block, and that the differential fuzzer names it.
func TestIntentionalDifferences(t *testing.T) {
	tests := []struct {
		name   string
		blocks []string // decoded in order by one decoder pair; the last one differs
	}{
		{"SizeUpdateAfterField", []string{"82 20"}},
		{"TooManySizeUpdates", []string{"20 20 20 82"}},
		{"SecondSizeUpdate", []string{"40 01 61 01 62", "3f e1 1f 3f e1 1f 82"}},
		{"IntegerBound", []string{"3f 80 80 80 80 80 80 00 82"}}, // size 31 with six continuation bytes
	}
	for _, tt := range tests {
		ours := newOurDecoder(4096)
		theirs := xhpack.NewDecoder(4096, nil)
		var ourErr, xnetErr error
		for _, h := range tt.blocks {
			block, err := hex.DecodeString(spaceless(h))
			if err != nil {
				t.Fatal(err)
			}
			ourErr = ourDecode(ours, mdelem.NewBatch(0, 0), [][]byte{block})
			_, xnetErr = xnetDecode(theirs, [][]byte{block})
		}
		if got := difference(ourErr, xnetErr); got != tt.name {
			t.Errorf("%s: ours %v, x/net %v: classified as %q", tt.name, ourErr, xnetErr, got)
		}
	}
}

func spaceless(s string) string {
	out := make([]byte, 0, len(s))
	for i := range len(s) {
		if s[i] != ' ' {
			out = append(out, s[i])
		}
	}
	return string(out)
}
