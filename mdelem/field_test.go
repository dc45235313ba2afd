package mdelem

import (
	"testing"

	"github.com/metapack/metapack/intern"
	"github.com/metapack/metapack/staticdata"
)

// TestSensitiveSurvivesAppend checks that the never-index mark, which
// lives in the name's tag word, survives every way Append may rewrite a
// name, and that it changes nothing else about the field.
func TestSensitiveSurvivesAppend(t *testing.T) {
	tab := intern.New(intern.Limits{})
	h, _ := intern.Make(tab, "x-secret-interned")
	tests := []struct {
		name string
		f    Field
		want string // the name as the batch keeps it
		kind Kind   // the name's kind in the batch
	}{
		{"static atom", From(staticdata.KeyAuthorization.Atom(), Borrowed("Bearer t")), "authorization", KindStatic},
		{"interned handle", From(h, Borrowed("Bearer t")), "x-secret-interned", KindInterned},
		{"well-known name as bytes, resolved to its atom", From(Borrowed("authorization"), Borrowed("Bearer t")), "authorization", KindStatic},
		{"unknown borrowed name, copied", From(Borrowed("x-api-key"), Borrowed("k")), "x-api-key", KindOwned},
		{"unknown owned name, adopted", From(Owned("x-api-key"), Owned("k")), "x-api-key", KindOwned},
	}
	for _, tt := range tests {
		for _, on := range []bool{true, false} {
			b := NewBatch(0, 0) // no room: the slow path too
			b.Append(tt.f.WithSensitive(on))
			b.Append(tt.f.WithSensitive(on))
			for i := range b.Len() {
				g := b.At(i)
				if g.Sensitive() != on {
					t.Errorf("%s, field %d: Sensitive() = %v, want %v", tt.name, i, g.Sensitive(), on)
				}
				if g.Name.String() != tt.want || g.Name.Len() != len(tt.want) || g.Name.Kind() != tt.kind {
					t.Errorf("%s, field %d: name %q (len %d, %v), want %q (%v)", tt.name, i, g.Name.String(), g.Name.Len(), g.Name.Kind(), tt.want, tt.kind)
				}
				if !g.Name.Equal(tt.f.Name) || !g.Name.EqualString(tt.want) {
					t.Errorf("%s, field %d: the mark changed the name's equality", tt.name, i)
				}
			}
			if want := 2 * (len(tt.want) + tt.f.Value.Len() + 32); b.Size() != want {
				t.Errorf("%s: Size = %d, want %d", tt.name, b.Size(), want)
			}
		}
	}
}

func TestWithSensitiveClears(t *testing.T) {
	f := From(staticdata.KeyCookie.Atom(), Borrowed("a=b"))
	if f.Sensitive() {
		t.Fatal("From marked a field sensitive")
	}
	g := f.WithSensitive(true)
	if !g.Sensitive() || !sameField(g.WithSensitive(false), f) {
		t.Errorf("WithSensitive(true) then (false) = %+v, want %+v", g.WithSensitive(false), f)
	}
	if g.Name.Atom() != staticdata.KeyCookie.Atom() || g.Name.Kind() != KindStatic || g.Key() != staticdata.KeyCookie {
		t.Errorf("the mark changed the name: %v %v", g.Name.Kind(), g.Key())
	}
}

// TestIsBorrowed checks that only Borrowed bytes not yet in a batch are
// borrowed: atoms, owned bytes and what Append copied are not.
func TestIsBorrowed(t *testing.T) {
	b := NewBatch(4, 64)
	tests := []struct {
		name string
		s    Str
		want bool
	}{
		{"borrowed", StrOf(Borrowed("v")), true},
		{"empty borrowed", StrOf(Borrowed(nil)), true},
		{"owned", StrOf(Owned("v")), false},
		{"static", StrOf(staticdata.KeyPath.Atom()), false},
		{"zero", Str{}, false},
		{"borrowed, appended", func() Str { b.Append(From(Borrowed("x-k"), Borrowed("v"))); return b.At(b.Len() - 1).Value }(), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.s.IsBorrowed(); got != tt.want {
				t.Errorf("IsBorrowed() = %v, want %v", got, tt.want)
			}
		})
	}
}
