package headerblock_test

import (
	"bytes"
	"strings"
	"testing"
)

// TestIntentionalDifferences shows each named difference from x/net's
// Framer on a concrete connection, and that the differential's classifier
// names it, for both of the Reader's forms.
func TestIntentionalDifferences(t *testing.T) {
	idx := litIdx("a", "b")
	flood := newConnWriter().open(1, nil)
	for range 300 { // over the default bound of a list limit of 1000: 256 frames
		flood.cont(1, false, nil)
	}
	flood.cont(1, true, []byte{0x82})
	tests := []struct {
		name string
		cfg  connConfig
		wire []byte
	}{
		{diffSizeUpdateAfterField, connConfig{}, newConnWriter().headers(1, true, []byte{0x82, 0x20}).bytes()},
		{diffTooManySizeUpdates, connConfig{}, newConnWriter().headers(1, true, []byte{0x20, 0x20, 0x20, 0x82}).bytes()},
		{diffSecondSizeUpdate, connConfig{}, newConnWriter().headers(1, true, idx).
			headers(3, true, []byte{0x3f, 0xe1, 0x1f, 0x3f, 0xe1, 0x1f, 0x82}).bytes()},
		{diffSizeUpdateRequired, connConfig{}, newConnWriter().headers(1, true, idx).tableSize(100).headers(3, true, []byte{0x82}).bytes()},
		{diffIntegerBound, connConfig{}, newConnWriter().headers(1, true, []byte{0x3f, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0x82}).bytes()},
		{diffStringOverList, connConfig{maxList: 40}, newConnWriter().headers(1, true, lit("x", strings.Repeat("v", 41))).bytes()},
		{diffStringOverList + "/indexed", connConfig{maxList: 5}, newConnWriter().headers(1, true, []byte{0x82}).bytes()},
		{diffBlockBound, connConfig{maxList: 1000}, flood.bytes()},
		{diffBlockBound + "/bytes", connConfig{maxBytes: 1000}, newConnWriter().headers(1, true, lit("x", strings.Repeat("v", 600)), lit("y", strings.Repeat("v", 600))).bytes()},
		{diffHuffmanAfterStop, connConfig{}, newConnWriter().headers(1, true, cat(lit("A", "b"), []byte{0x00, 0x01, 'x', 0x81, 0xff})).bytes()},
		{diffUncheckedOverLimit, connConfig{maxList: 10}, newConnWriter().headers(1, true, lit("x", "a\x00b")).bytes()},
		{diffFieldLimit, connConfig{}, newConnWriter().headers(1, true, bytes.Repeat(lit("a", "b"), 256+1)).bytes()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, _, _ := strings.Cut(tt.name, "/")
			for _, mode := range []readMode{modeMeta, modeBatch} {
				tl := newTally()
				if msg := runPair(mode, tt.wire, tt.cfg, tl); msg != "" {
					t.Fatalf("mode %d: unexplained: %s", mode, msg)
				}
				if len(tl.named) != 1 || tl.named[want] != 1 {
					t.Errorf("mode %d: classified as %v, want one %s", mode, tl.named, want)
				}
			}
		})
	}
}
