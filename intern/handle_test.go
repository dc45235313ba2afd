package intern

import (
	"testing"

	"github.com/metapack/metapack/staticdata"
)

// TestFromAtomCanonical checks that FromAtom gives the canonical handle
// for every atom it can be given without unsafe code: a static-tier atom,
// a copy of one (an Atom value can be copied though its fields are
// unexported), the zero Atom (the empty string), a Table's record, and
// nil, so that == between handles keeps meaning "same string".
func TestFromAtomCanonical(t *testing.T) {
	tab := New(DefaultLimits)
	rec, _ := tab.MakeString("x-tenant-id")
	path, _ := StaticString(":path")
	empty, _ := StaticString("")
	cp := *staticdata.KeyPath.Atom()
	var zero staticdata.Atom
	tests := []struct {
		name string
		a    *staticdata.Atom
		want Handle
	}{
		{"static", staticdata.KeyPath.Atom(), path},
		{"copy of a static atom", &cp, path},
		{"zero Atom", &zero, empty},
		{"record of a table", rec.Atom(), rec},
		{"nil", nil, Handle{}},
	}
	for _, tt := range tests {
		if got := FromAtom(tt.a); got != tt.want {
			t.Errorf("%s: FromAtom = %v (%p), want %v (%p)", tt.name, got, got.Atom(), tt.want, tt.want.Atom())
		}
	}
}
