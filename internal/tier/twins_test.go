package tier

import (
	"math/rand/v2"
	"testing"
)

// lookupInputs returns every atom's string, each with one byte changed at
// every position, and random strings of lengths 0 to 100.
func lookupInputs() []string {
	var in []string
	for i := range atoms {
		s := atoms[i].s
		in = append(in, s)
		for pos := range len(s) {
			b := []byte(s)
			b[pos] ^= 0x01
			in = append(in, string(b))
		}
	}
	r := rand.New(rand.NewPCG(16, 4))
	for n := 0; n <= 100; n++ {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		in = append(in, string(b))
	}
	return in
}

// TestPhashShapes checks that the generated phash gives a string and the
// same bytes as a slice the same hash: the lookups use both shapes.
func TestPhashShapes(t *testing.T) {
	for _, s := range lookupInputs() {
		if s == "" {
			continue
		}
		if got, want := phash([]byte(s)), phash(s); got != want {
			t.Errorf("phash([]byte %q) = %d, phash(%q) = %d", s, got, s, want)
		}
	}
}

// TestLookupTwins checks the string and byte-slice forms of every lookup
// against each other and against a map of the atoms.
func TestLookupTwins(t *testing.T) {
	m := map[string]*Atom{}
	for i := range atoms {
		m[atoms[i].s] = &atoms[i]
	}
	for _, s := range lookupInputs() {
		b := []byte(s)
		want := m[s]
		if got := Lookup(s); got != want {
			t.Errorf("Lookup(%q) = %p, want %p", s, got, want)
		}
		if got := Lookup(b); got != want {
			t.Errorf("Lookup([]byte %q) = %p, want %p", s, got, want)
		}
		if want != nil && (!MayBeAtom(s) || !MayBeAtom(b)) {
			t.Errorf("MayBeAtom(%q) = false for an atom", s)
		}
		if MayBeAtom(s) != MayBeAtom(b) {
			t.Errorf("MayBeAtom(%q) != MayBeAtom of the bytes", s)
		}
		i1, k1 := lookupName(s)
		i2, k2 := lookupName(b)
		if i1 != i2 || k1 != k2 {
			t.Errorf("lookupName(%q) = %d, %d; lookupName of the bytes = %d, %d", s, i1, k1, i2, k2)
		}
	}
	for i := 1; i <= TableLen; i++ {
		name := staticTable[i].Name.s
		for _, value := range lookupInputs() {
			i1, n1 := LookupField(name, value)
			i2, n2 := LookupField([]byte(name), []byte(value))
			if i1 != i2 || n1 != n2 {
				t.Fatalf("LookupField(%q, %q) = %d, %d; LookupField of the bytes = %d, %d", name, value, i1, n1, i2, n2)
			}
		}
	}
}

// lookupName returns the first static-table index whose name is name, and
// name's well-known key ID, through Lookup; either may be 0.
func lookupName[T ~string | ~[]byte](name T) (index uint8, key uint8) {
	if a := Lookup(name); a != nil {
		return a.nameIndex, a.key
	}
	return 0, 0
}
