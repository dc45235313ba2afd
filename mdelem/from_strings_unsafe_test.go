//go:build !purego

package mdelem

import "testing"

// TestFromStringsDoesNotAllocate checks that FromStrings allocates for
// neither kind of side. Under purego, which cannot alias a string's bytes,
// a side that is no atom is copied, so the test is the default build's.
func TestFromStringsDoesNotAllocate(t *testing.T) {
	name, value := "x-request-id", "7a5f0c1e"
	var sink Field
	tests := []struct {
		name string
		f    func()
	}{
		{"static_static", func() { sink = FromStrings(":method", "POST") }},
		{"static_borrowed", func() { sink = FromStrings(":path", value) }},
		{"borrowed_static", func() { sink = FromStrings(name, "gzip") }},
		{"borrowed_borrowed", func() { sink = FromStrings(name, value) }},
	}
	for _, tt := range tests {
		if n := testing.AllocsPerRun(100, tt.f); n != 0 {
			t.Errorf("%s: FromStrings allocates %v times", tt.name, n)
		}
	}
	b := NewBatch(4, 64)
	if n := testing.AllocsPerRun(100, func() {
		b.Reset()
		b.Append(FromStrings(":path", value))
		b.Append(FromStrings(name, value))
	}); n != 0 {
		t.Errorf("appending FromStrings fields to a batch with room allocates %v times", n)
	}
	_ = sink
}
