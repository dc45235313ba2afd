package indexpolicy

import "testing"

// TestKnowsNameWithin: a name counts as known within n fields when the
// policy decided on it or was told of it at most n-1 fields ago, and a
// name the policy never saw is not known.
func TestKnowsNameWithin(t *testing.T) {
	const name, other = 0x1111_2222_0000_0001, 0x3333_4444_0000_0002 // different slots
	tests := []struct {
		name   string
		after  int // fields of another name after the name's
		within uint64
		want   bool
	}{
		{"just seen", 0, 1, true},
		{"one field after, within 1", 1, 1, false},
		{"one field after, within 2", 1, 2, true},
		{"100 after, within 100", 100, 100, false},
		{"100 after, within 101", 100, 101, true},
		{"40000 after, within more than 2^15", 40000, 1 << 20, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p Policy
			if p.KnowsNameWithin(name, 1<<15) {
				t.Fatal("a name never seen is known")
			}
			p.Indexes(100, 4096, name, 1, false, false)
			for i := range tt.after {
				p.Indexes(100, 4096, other, uint64(i+2), false, false)
			}
			if got := p.KnowsNameWithin(name, tt.within); got != tt.want {
				t.Errorf("KnowsNameWithin(within %d) after %d other fields = %v, want %v", tt.within, tt.after, got, tt.want)
			}
			if !p.KnowsName(name) {
				t.Error("KnowsName = false for a name seen")
			}
		})
	}
}
