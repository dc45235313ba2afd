package mdelem

import (
	"bytes"
	"math"
	"testing"
)

// TestBatchAlloc checks that Alloc's memory is the batch's own: regions
// never overlap each other or the fields' bytes, survive the arena's
// growth, and are capped at their length; and that careless sizes give
// nil.
func TestBatchAlloc(t *testing.T) {
	b := NewBatch(2, 8)
	var regions [][]byte
	for n := 1; n <= 300; n += 37 {
		r := b.Alloc(n)
		if len(r) != n || cap(r) != n {
			t.Fatalf("Alloc(%d): len %d cap %d", n, len(r), cap(r))
		}
		for i := range r {
			r[i] = byte(n)
		}
		regions = append(regions, r)
		b.Append(FromStrings("x-field", string(bytes.Repeat([]byte{'v'}, n))))
	}
	for _, r := range regions {
		if !bytes.Equal(r, bytes.Repeat([]byte{byte(len(r))}, len(r))) {
			t.Errorf("region of %d bytes changed", len(r))
		}
	}
	for i := range b.Len() {
		if v := b.At(i).Value.String(); v != string(bytes.Repeat([]byte{'v'}, len(v))) {
			t.Errorf("field %d's value changed: %q", i, v)
		}
	}
	for _, n := range []int{0, -1, math.MinInt, math.MaxInt, math.MaxInt - 1, maxAlloc + 1} {
		if r := b.Alloc(n); r != nil {
			t.Errorf("Alloc(%d): %d bytes, want nil", n, len(r))
		}
	}
}
