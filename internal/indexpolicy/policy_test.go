package indexpolicy

import "testing"

// TestRecentName: a name is recent within n calls when RecentName was
// called for it at most n-1 calls before, and a name never passed is not.
func TestRecentName(t *testing.T) {
	const name, other = 0x1111_2222_0000_0001, 0x3333_4444_0000_0002 // different slots
	tests := []struct {
		name   string
		after  int // calls for another name after the name's
		within uint64
		want   bool
	}{
		{"just seen", 0, 1, true},
		{"one call after, within 1", 1, 1, false},
		{"one call after, within 2", 1, 2, true},
		{"100 after, within 100", 100, 100, false},
		{"100 after, within 101", 100, 101, true},
		{"40000 after, within 2^15", 40000, 1 << 15, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p Policy
			if p.RecentName(name, 1<<15) {
				t.Fatal("a name never passed is recent")
			}
			for range tt.after {
				p.RecentName(other, 1)
			}
			if got := p.RecentName(name, tt.within); got != tt.want {
				t.Errorf("RecentName(within %d) after %d other calls = %v, want %v", tt.within, tt.after, got, tt.want)
			}
		})
	}
}

// TestRecentNameKeepsScore: RecentName leaves the name's score as Indexes
// learned it.
func TestRecentNameKeepsScore(t *testing.T) {
	var p Policy
	const nh = 0x5555_6666_0000_0003
	for range maxNameScore {
		p.Repeat(nh)
	}
	p.RecentName(nh, 100)
	if got := *p.names.slot(nh); got != maxNameScore {
		t.Errorf("score %d after RecentName, want %d", got, maxNameScore)
	}
}
