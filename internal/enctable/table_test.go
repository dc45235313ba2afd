package enctable

import (
	"fmt"
	"testing"

	"github.com/metapack/metapack/internal/indexpolicy"
	"github.com/metapack/metapack/internal/inlinecheck"
	"github.com/metapack/metapack/internal/tier"
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

// TestFullTable fills tables to their last entry with entries of the least
// size, 32, and of mixed sizes, and checks against a model that every live
// entry, and none other, is found at its age: the entry ring must hold as
// many entries as the table can.
func TestFullTable(t *testing.T) {
	for _, max := range []uint32{32, 33, 63, 64, 100, 1000, 4095, 4096, 4097, 10000} {
		for _, mixed := range []bool{false, true} {
			t.Run(fmt.Sprintf("max=%d/mixed=%v", max, mixed), func(t *testing.T) {
				var tb Table
				tb.SetMax(max)
				var model []Field // oldest first
				size := uint32(0)
				for i := range 3*int(max)/32 + 10 {
					v := Field{Name: "", Value: ""}
					if mixed && i%3 != 0 {
						v = Field{Name: "n", Value: fmt.Sprint(i)}
					}
					s := uint32(len(v.Name)+len(v.Value)) + 32
					switch {
					case s > max: // too large: it empties the table (RFC 7541 §4.4)
						model, size = nil, 0
					default:
						for size+s > max {
							size -= uint32(len(model[0].Name)+len(model[0].Value)) + 32
							model = model[1:]
						}
						model, size = append(model, v), size+s
					}
					tb.Add(&v, indexpolicy.ValueHash(v.Name), indexpolicy.ValueHash(v.Name+"\x00"+v.Value))
					if tb.Count() != uint32(len(model)) || tb.Size() != size {
						t.Fatalf("after %d adds: %d entries of size %d, want %d of %d", i+1, tb.Count(), tb.Size(), len(model), size)
					}
				}
				for age := range uint32(len(model)) {
					want := model[len(model)-1-int(age)]
					e := tb.At(age)
					got := Field{Name: tableStr(&tb, e.name), Value: tableStr(&tb, e.value)}
					if got != want {
						t.Fatalf("entry of age %d: %q, want %q", age, got, want)
					}
					if want.Value != "" {
						if a, ok := tb.FindField(indexpolicy.ValueHash(want.Name+"\x00"+want.Value), &want); !ok || a != age {
							t.Errorf("FindField(%q) = %d, %v; want %d, true", want, a, ok, age)
						}
					}
				}
			})
		}
	}
}

// tableStr returns the string s of tb.
func tableStr(tb *Table, s Str) string {
	if s.atom != nil {
		return tier.Str(s.atom)
	}
	return string(tb.RingBytes(s))
}
