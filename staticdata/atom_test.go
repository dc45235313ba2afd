package staticdata

import (
	"testing"

	"github.com/metapack/metapack/internal/tier"
)

// TestIsName checks that a static atom tells a field name from a value:
// the static table's values "/", "" and "gzip, deflate" are no names, so
// code that takes a static atom as a name must ask IsName.
func TestIsName(t *testing.T) {
	tests := []struct {
		s    string
		want bool
	}{
		{":path", true},
		{"content-type", true},
		{"grpc-status-details-bin", true},
		{"gzip", true}, // a value that is also a valid name
		{"/", false},
		{"", false},
		{"/index.html", false},
		{"gzip, deflate", false},
		{"GET", false},
		{"200", true},
	}
	for _, tt := range tests {
		t.Run(tt.s, func(t *testing.T) {
			a := Lookup(tt.s)
			if a == nil {
				t.Fatalf("%q is not a static atom", tt.s)
			}
			if got := a.IsName(); got != tt.want {
				t.Errorf("Lookup(%q).IsName() = %v, want %v", tt.s, got, tt.want)
			}
		})
	}
	for k := KeyID(1); k < tier.NumKeys; k++ {
		if !k.Atom().IsName() {
			t.Errorf("key %q is not a name", k.String())
		}
	}
}

// TestNilAtom checks that every method takes a nil atom, as Lookup returns
// for a string of no atom, without panicking.
func TestNilAtom(t *testing.T) {
	var a *Atom
	if a.String() != "" || a.Key() != KeyUnknown || a.IsName() {
		t.Errorf("nil atom: String %q, Key %d, IsName %v", a.String(), a.Key(), a.IsName())
	}
}
