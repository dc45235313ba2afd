package tier

import (
	"testing"

	"github.com/metapack/metapack/internal/guardpage"
)

// guardMaxLen is the longest input TestLookupAtGuard tries besides the
// atoms themselves.
const guardMaxLen = 80

// TestLookupAtGuard runs every lookup with its input's bytes ending at a
// guard page and starting right after one: every atom (the comparison runs
// to the last byte), every atom changed in one byte, and for every length
// 0 to guardMaxLen a string that is no atom. LookupField gets each static
// name with each value of its run, and a miss, both at the guard.
func TestLookupAtGuard(t *testing.T) {
	inputs := lookupInputs()
	for n := 0; n <= guardMaxLen; n++ {
		b := make([]byte, n)
		for i := range b {
			b[i] = 'x'
		}
		inputs = append(inputs, string(b))
	}
	maxLen := 0
	for _, s := range inputs {
		maxLen = max(maxLen, len(s))
	}
	r := guardpage.NewRegion(t, maxLen)
	r2 := guardpage.NewRegion(t, maxLen)
	sides := []struct {
		name   string
		bytes  func(*guardpage.Region, []byte) []byte
		string func(testing.TB, string) string
	}{
		{"before", (*guardpage.Region).CopyBefore, guardpage.StringBefore},
		{"after", (*guardpage.Region).CopyAfter, guardpage.StringAfter},
	}
	for _, side := range sides {
		t.Run(side.name, func(t *testing.T) {
			for _, s := range inputs {
				want := Lookup(s)
				gs := side.string(t, s)
				gb := side.bytes(r, []byte(s))
				if got := Lookup(gs); got != want {
					t.Errorf("Lookup(%q) = %p, want %p", s, got, want)
				}
				if got := Lookup(gb); got != want {
					t.Errorf("Lookup([]byte %q) = %p, want %p", s, got, want)
				}
				if MayBeAtom(gs) != MayBeAtom(s) || MayBeAtom(gb) != MayBeAtom(s) {
					t.Errorf("MayBeAtom(%q) differs at the guard", s)
				}
				wi, wk := lookupName(s)
				if i, k := lookupName(gs); i != wi || k != wk {
					t.Errorf("lookupName(%q) = %d, %d; want %d, %d", s, i, k, wi, wk)
				}
				if i, k := lookupName(gb); i != wi || k != wk {
					t.Errorf("lookupName([]byte %q) = %d, %d; want %d, %d", s, i, k, wi, wk)
				}
			}
			for i := 1; i <= TableLen; i++ {
				name := staticTable[i].Name.s
				for _, value := range []string{staticTable[i].Value.s, staticTable[i].Value.s + "x", "x"} {
					wi, wn := LookupField(name, value)
					gn, gv := side.string(t, name), side.string(t, value)
					if fi, fn := LookupField(gn, gv); fi != wi || fn != wn {
						t.Errorf("LookupField(%q, %q) = %d, %d; want %d, %d", name, value, fi, fn, wi, wn)
					}
					bn, bv := side.bytes(r, []byte(name)), side.bytes(r2, []byte(value))
					if fi, fn := LookupField(bn, bv); fi != wi || fn != wn {
						t.Errorf("LookupField([]byte %q, %q) = %d, %d; want %d, %d", name, value, fi, fn, wi, wn)
					}
				}
			}
		})
	}
}
