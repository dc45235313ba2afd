package mdelem

import (
	"testing"

	"github.com/metapack/metapack/intern"
	sd "github.com/metapack/metapack/staticdata"
)

// TestStrOfKinds checks that StrOf builds each kind of side exactly as
// From does, tag and all, in either build.
func TestStrOfKinds(t *testing.T) {
	tab := intern.New(intern.DefaultLimits)
	h, _ := tab.MakeString("x-tenant-id")
	b := []byte("bytes")
	tests := []struct {
		name string
		got  Str
		want Str
		kind Kind
	}{
		{"static", StrOf(sd.KeyPath.Atom()), From(sd.KeyPath.Atom(), Owned(nil)).Name, KindStatic},
		{"nil static", StrOf(Static(nil)), From(Static(nil), Owned(nil)).Name, KindInvalid},
		{"interned", StrOf(h), From(h, Owned(nil)).Name, KindInterned},
		{"interned as static", StrOf(h.Atom()), From(h.Atom(), Owned(nil)).Name, KindInterned},
		{"zero handle", StrOf(intern.Handle{}), From(intern.Handle{}, Owned(nil)).Name, KindInvalid},
		{"owned", StrOf(Owned(b)), From(Owned(b), Owned(nil)).Name, KindOwned},
		{"borrowed", StrOf(Borrowed(b)), From(Borrowed(b), Owned(nil)).Name, KindBorrowed},
		{"empty borrowed", StrOf(Borrowed(nil)), From(Borrowed(nil), Owned(nil)).Name, KindBorrowed},
	}
	for _, tt := range tests {
		if !sameStr(tt.got, tt.want) || tt.got.Kind() != tt.kind || tt.got.UnsafeString() != tt.want.UnsafeString() {
			t.Errorf("StrOf(%s) = %v (%v), want From's %v (%v)", tt.name, tt.got, tt.got.Kind(), tt.want, tt.kind)
		}
	}
}
