package enctable

import (
	"fmt"
	"testing"

	"github.com/metapack/metapack/internal/indexpolicy"
	"github.com/metapack/metapack/internal/inlinecheck"
)

// TestFindFieldProbes: when many entries share a pair hash, findField
// compares at most maxPairProbes of them, newest first: a field further
// down the chain is not found (and is sent as a literal), and one within
// it is.
func TestFindFieldProbes(t *testing.T) {
	var tb Table
	tb.SetMax(1 << 16)
	const ph = 0x1234 // every entry gets this pair hash
	n := 3 * maxPairProbes
	for i := range n {
		v := Field{Name: "x-collide", Value: fmt.Sprintf("value-%02d", i)}
		tb.Add(&v, indexpolicy.ValueHash(v.Name), ph)
	}
	for i := range n {
		v := Field{Name: "x-collide", Value: fmt.Sprintf("value-%02d", i)}
		age, ok := tb.FindField(ph, &v)
		within := n-1-i < maxPairProbes // the newest maxPairProbes
		if ok != within || ok && age != uint32(n-1-i) {
			t.Errorf("value %d: found %v at age %d, want found %v at age %d", i, ok, age, within, n-1-i)
		}
	}
}

// The encoders call these once per field.
func TestInlining(t *testing.T) {
	inlinecheck.Check(t, ".", "nextPow2", "(*Table).live", "(*Table).equal", "(*Table).At", "(*Table).EvictTo",
		"(*Table).Count", "(*Table).Size", "(*Table).Max")
}
