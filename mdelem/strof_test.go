package mdelem

import (
	"testing"

	"github.com/metapack/metapack/intern"
	"github.com/metapack/metapack/staticdata"
)

// TestStrOfKinds checks that StrOf builds each kind of side exactly as
// From does, tag and all, and as fromSide, its pure-Go twin compiled in
// both builds, does: in the default build this compares the unsafe StrOf
// with the twin.
func TestStrOfKinds(t *testing.T) {
	tab := intern.New(intern.Limits{})
	h, _ := intern.Make(tab, "x-tenant-id")
	b := []byte("bytes")
	tests := []struct {
		name string
		got  Str
		want Str
		twin Str
		kind Kind
	}{
		{"static", StrOf(staticdata.KeyPath.Atom()), From(staticdata.KeyPath.Atom(), Owned(nil)).Name, fromSide(staticdata.KeyPath.Atom()), KindStatic},
		{"nil static", StrOf(Static(nil)), From(Static(nil), Owned(nil)).Name, fromSide(Static(nil)), KindInvalid},
		{"interned", StrOf(h), From(h, Owned(nil)).Name, fromSide(h), KindInterned},
		{"interned as static", StrOf(h.Atom()), From(h.Atom(), Owned(nil)).Name, fromSide(h.Atom()), KindInterned},
		{"zero handle", StrOf(intern.Handle{}), From(intern.Handle{}, Owned(nil)).Name, fromSide(intern.Handle{}), KindInvalid},
		{"owned", StrOf(Owned(b)), From(Owned(b), Owned(nil)).Name, fromSide(Owned(b)), KindOwned},
		{"borrowed", StrOf(Borrowed(b)), From(Borrowed(b), Owned(nil)).Name, fromSide(Borrowed(b)), KindBorrowed},
		{"empty borrowed", StrOf(Borrowed(nil)), From(Borrowed(nil), Owned(nil)).Name, fromSide(Borrowed(nil)), KindBorrowed},
	}
	for _, tt := range tests {
		if !sameStr(tt.got, tt.twin) {
			t.Errorf("StrOf(%s) = %#v, its twin fromSide %#v", tt.name, tt.got, tt.twin)
		}
		if !sameStr(tt.got, tt.want) || tt.got.Kind() != tt.kind || tt.got.UnsafeString() != tt.want.UnsafeString() {
			t.Errorf("StrOf(%s) = %v (%v), want From's %v (%v)", tt.name, tt.got, tt.got.Kind(), tt.want, tt.kind)
		}
	}
}
