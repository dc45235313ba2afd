package mdelem

import (
	"errors"
	"github.com/metapack/metapack/internal/tier"
	"strconv"
	"testing"

	"github.com/metapack/metapack/intern"
	"github.com/metapack/metapack/staticdata"
)

// appendPaths appends f to a fresh batch through each of Append's paths:
// the fast path (room for fields and bytes), the slow path (a batch with
// no capacity), and appendSafe, the twin.
var appendPaths = []struct {
	name string
	add  func(*Batch, Field)
	make func() *Batch
}{
	{"fast", (*Batch).Append, func() *Batch { return NewBatch(4, 64) }},
	{"slow", (*Batch).Append, func() *Batch { return NewBatch(0, 0) }},
	{"safe", (*Batch).append, func() *Batch { return NewBatch(4, 64) }},
}

// TestAppendRejectsNoString checks that a field with a side that holds no
// string (the zero intern.Handle, a nil atom such as Lookup's for a string
// with no atom, the zero Str) is neither appended as an empty string nor
// a panic, on every path: the batch stays as it was and Err says which
// field and which side.
func TestAppendRejectsNoString(t *testing.T) {
	var zero intern.Handle
	tests := []struct {
		name     string
		f        Field
		want     error
		wantName string
	}{
		{"zero Handle name", From(zero, Borrowed("v")), ErrNoName, ""},
		{"zero Handle name, static value", From(zero, staticdata.Lookup("gzip")), ErrNoName, ""},
		{"zero Handle value", From(staticdata.KeyPath.Atom(), zero), ErrNoValue, ":path"},
		{"Lookup without an atom", From(staticdata.KeyStatus.Atom(), staticdata.Lookup("201")), ErrNoValue, ":status"},
		{"nil atom name", From(staticdata.Lookup("x-no-atom"), Borrowed("v")), ErrNoName, ""},
		{"nil atom value, bytes name", From(Borrowed("x-k"), staticdata.Lookup("201")), ErrNoValue, "x-k"},
		{"nil atom value, name that may be an atom", From(Borrowed(":status"), staticdata.Lookup("201")), ErrNoValue, ":status"},
		{"zero Str value", Field{Name: strAtom(staticdata.KeyTe.Atom())}, ErrNoValue, "te"},
		{"zero Field", Field{}, ErrNoName, ""},
		{"strAtom(nil) name, sensitive", Field{Name: strAtom(nil), Value: borrowedStr([]byte("v"))}.WithSensitive(true), ErrNoName, ""},
	}
	for _, tt := range tests {
		for _, p := range appendPaths {
			if tt.f.IsValid() {
				t.Fatalf("%s: IsValid", tt.name)
			}
			b := p.make()
			p.add(b, From(staticdata.KeyMethod.Atom(), staticdata.Lookup("GET")))
			p.add(b, tt.f)
			if b.Len() != 1 || b.Size() != len(":methodGET")+32 {
				t.Errorf("%s, %s path: Len %d, Size %d after the rejected field", tt.name, p.name, b.Len(), b.Size())
			}
			var fe *rejectError
			if err := b.Err(); !errors.Is(err, tt.want) || !errors.As(err, &fe) || fe.index != 1 || fe.name != tt.wantName ||
				err.Error() != tt.want.Error()+": field 1 "+strconv.Quote(tt.wantName) {
				t.Errorf("%s, %s path: Err = %v, want %v at 1 named %q", tt.name, p.name, err, tt.want, tt.wantName)
			}
			if f, ok := b.Get(staticdata.KeyStatus); ok {
				t.Errorf("%s, %s path: Get(:status) = %v", tt.name, p.name, f)
			}
			// The first error stays; Reset clears it.
			p.add(b, From(zero, zero))
			if !errors.Is(b.Err(), tt.want) {
				t.Errorf("%s, %s path: a second rejection replaced Err: %v", tt.name, p.name, b.Err())
			}
			b.Reset()
			if b.Err() != nil {
				t.Errorf("%s, %s path: Err after Reset = %v", tt.name, p.name, b.Err())
			}
		}
	}
}

// TestStrNoString checks what a Str that holds no string reports: no
// panic, KindInvalid, and the empty string everywhere else.
func TestStrNoString(t *testing.T) {
	var zero intern.Handle
	for name, s := range map[string]Str{
		"zero Handle":       From(zero, zero).Name,
		"zero Handle value": From(Borrowed("x"), zero).Value,
		"nil atom":          From(staticdata.Lookup("201"), Borrowed("x")).Name,
		"strAtom(nil)":      strAtom(nil),
		"zero Str":          {},
	} {
		if s.IsValid() || s.Kind() != KindInvalid || s.Kind().String() != "invalid" || s.Len() != 0 || s.String() != "" || s.IsAtom() || s.Atom() != nil {
			t.Errorf("%s: IsValid %v, Kind %v, Len %d, String %q", name, s.IsValid(), s.Kind(), s.Len(), s.String())
		}
	}
	// Empty strings hold a string.
	for name, s := range map[string]Str{
		"empty atom":     strAtom(staticdata.Lookup("")),
		"empty borrowed": From(Borrowed(nil), Owned(nil)).Name,
		"empty owned":    From(Borrowed(nil), Owned(nil)).Value,
	} {
		if !s.IsValid() || s.Kind() == KindInvalid {
			t.Errorf("%s: IsValid %v, Kind %v", name, s.IsValid(), s.Kind())
		}
	}
}

// TestAppendInternedAsStatic checks that an atom of package intern given
// to From as Static is what it is: interned, and pinned by the batch, so
// that Reset forgets it, on every path and on either side.
func TestAppendInternedAsStatic(t *testing.T) {
	tab := intern.New(intern.Limits{})
	h, _ := intern.Make(tab, "x-interned")
	a := h.Atom()
	if k := From(a, a).Name.Kind(); k != KindInterned {
		t.Errorf("Kind = %v, want interned", k)
	}
	for _, tt := range []struct {
		name string
		f    Field
	}{
		{"name", From(a, staticdata.Lookup("gzip"))},
		{"name, borrowed value", From(a, Borrowed("v"))},
		{"value", From(staticdata.KeyUserAgent.Atom(), a)},
		{"value, bytes name", From(Borrowed("x-k"), a)},
		{"value, bytes name that may be an atom", From(Borrowed("te"), a)},
	} {
		for _, p := range appendPaths {
			b := p.make()
			p.add(b, tt.f)
			f := b.At(0)
			for _, s := range []Str{f.Name, f.Value} {
				if s.Atom() == a && s.Kind() != KindInterned {
					t.Errorf("%s, %s path: stored as %v", tt.name, p.name, s.Kind())
				}
			}
			if !b.pins {
				t.Errorf("%s, %s path: the batch does not pin the interned atom", tt.name, p.name)
			}
			b.Reset()
			if f := b.fields[:1][0]; !sameField(f, Field{}) {
				t.Errorf("%s, %s path: after Reset the batch still holds %v", tt.name, p.name, f)
			}
		}
	}
}

// TestForgedAtomIsTheAtom checks that a copy of a static atom (its fields
// are unexported, but an Atom value can be copied), or the zero Atom, is
// taken for the atom it copies: it Equals it, has its kind, key and
// string, and fills its key's slot.
func TestForgedAtomIsTheAtom(t *testing.T) {
	path := *staticdata.KeyPath.Atom()
	get := *staticdata.Lookup("GET")
	var zero staticdata.Atom // ID 0: the empty string
	real := strAtom(staticdata.KeyPath.Atom())
	forged := From(&path, &get)
	if !forged.Name.Equal(real) || !real.Equal(forged.Name) || !forged.Value.Equal(strAtom(staticdata.Lookup("GET"))) {
		t.Error("a copy of :path does not Equal :path")
	}
	if forged.Name.Equal(strAtom(staticdata.KeyAuthority.Atom())) || forged.Name.Equal(forged.Value) {
		t.Error("a copy of :path Equals another atom")
	}
	if forged.Name.Kind() != KindStatic || forged.Key() != staticdata.KeyPath || forged.Name.String() != ":path" {
		t.Errorf("copy of :path: kind %v, key %v, atom %p", forged.Name.Kind(), forged.Key(), forged.Name.Atom())
	}
	if z := strAtom(&zero); !z.Equal(strAtom(staticdata.Lookup(""))) || z.String() != "" {
		t.Error("the zero Atom is not the empty string")
	}
	for _, p := range appendPaths {
		b := p.make()
		p.add(b, forged)
		if f, ok := b.Get(staticdata.KeyPath); !ok || !f.Name.Equal(real) || !f.Value.EqualString("GET") {
			t.Errorf("%s path: Get(:path) = %v, %v", p.name, f, ok)
		}
	}
}

// TestGetUnknownKey checks that Get and Value find nothing, and do not
// panic, for KeyUnknown and for IDs past the well-known keys.
func TestGetUnknownKey(t *testing.T) {
	b := NewBatch(4, 64)
	b.Append(From(Borrowed("x-k"), Borrowed("v")))
	for _, k := range []staticdata.KeyID{staticdata.KeyUnknown, tier.NumKeys, 200, 255} {
		if f, ok := b.Get(k); ok {
			t.Errorf("Get(%d) = %v", k, f)
		}
		if _, ok := b.Get(k); ok {
			t.Errorf("Value(%d) found a field", k)
		}
	}
}
