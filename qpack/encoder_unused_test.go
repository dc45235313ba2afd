package qpack

import (
	"testing"

	"github.com/metapack/metapack/internal/indexpolicy"
)

// TestUnusedNames: a name may be inserted until unusedFree of its entries
// in a row went unused; then only every 2nd, 4th, 8th and at most 16th
// time; a use starts it over. Other names are not affected.
func TestUnusedNames(t *testing.T) {
	const nh, other = 0x1234_5678_0000_0000, 0x8765_4321_0000_0000
	tag := indexpolicy.HashTag(nh)
	// allowed runs mayInsert n times and returns which calls said yes.
	allowed := func(u *unusedNames, n int) (s string) {
		for range n {
			if u.mayInsert(nh) {
				s += "y"
			} else {
				s += "."
			}
		}
		return s
	}
	tests := []struct {
		name    string
		unused  int  // entries evicted unused
		usedNow bool // then one used
		want    string
	}{
		{"fresh", 0, false, "yyyyyyyy"},
		{"one unused", 1, false, "yyyyyyyy"},
		{"two unused", 2, false, ".y.y.y.y"},
		{"three unused", 3, false, "...y...y"},
		{"four unused", 4, false, ".......y"},
		{"many unused", 50, false, "...............y"},
		{"many unused, then used", 50, true, "yyyyyyyy"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var u unusedNames
			for range tt.unused {
				u.evictedUnused(tag)
			}
			if tt.usedNow {
				u.used(tag)
			}
			if !u.mayInsert(other) {
				t.Error("another name is refused")
			}
			if got := allowed(&u, len(tt.want)); got != tt.want {
				t.Errorf("inserts allowed %q, want %q", got, tt.want)
			}
		})
	}
}
