package mdelem

import (
	"testing"

	"github.com/metapack/metapack/intern"
	"github.com/metapack/metapack/staticdata"
)

func TestFromKinds(t *testing.T) {
	tab := intern.New(intern.Limits{})
	h, ok := intern.Make(tab, "x-tenant-id")
	if !ok {
		t.Fatal("cannot intern")
	}
	owned := []byte("owned-bytes")
	borrowed := []byte("borrowed-bytes")
	path := staticdata.KeyPath.Atom()

	tests := []struct {
		name       string
		f          Field
		kinds      [2]Kind
		nameS, val string
	}{
		{"static_static", From(path, staticdata.Lookup("/")), [2]Kind{KindStatic, KindStatic}, ":path", "/"},
		{"static_interned", From(path, h), [2]Kind{KindStatic, KindInterned}, ":path", "x-tenant-id"},
		{"static_owned", From(path, Owned(owned)), [2]Kind{KindStatic, KindOwned}, ":path", "owned-bytes"},
		{"static_borrowed", From(path, Borrowed(borrowed)), [2]Kind{KindStatic, KindBorrowed}, ":path", "borrowed-bytes"},
		{"interned_owned", From(h, Owned(owned)), [2]Kind{KindInterned, KindOwned}, "x-tenant-id", "owned-bytes"},
		{"owned_interned", From(Owned(owned), h), [2]Kind{KindOwned, KindInterned}, "owned-bytes", "x-tenant-id"},
		{"borrowed_static", From(Borrowed(borrowed), path), [2]Kind{KindBorrowed, KindStatic}, "borrowed-bytes", ":path"},
		{"owned_borrowed", From(Owned(owned), BorrowString("s")), [2]Kind{KindOwned, KindBorrowed}, "owned-bytes", "s"},
		{"interned_static", From(h, path), [2]Kind{KindInterned, KindStatic}, "x-tenant-id", ":path"},
		{"interned_interned", From(h, h), [2]Kind{KindInterned, KindInterned}, "x-tenant-id", "x-tenant-id"},
		{"interned_borrowed", From(h, Borrowed(borrowed)), [2]Kind{KindInterned, KindBorrowed}, "x-tenant-id", "borrowed-bytes"},
		{"owned_static", From(Owned(owned), path), [2]Kind{KindOwned, KindStatic}, "owned-bytes", ":path"},
		{"owned_owned", From(Owned(owned), Owned(owned[:5])), [2]Kind{KindOwned, KindOwned}, "owned-bytes", "owned"},
		{"borrowed_interned", From(Borrowed(borrowed), h), [2]Kind{KindBorrowed, KindInterned}, "borrowed-bytes", "x-tenant-id"},
		{"borrowed_owned", From(Borrowed(borrowed[:8]), Owned(owned)), [2]Kind{KindBorrowed, KindOwned}, "borrowed", "owned-bytes"},
		{"borrowed_borrowed", From(Borrowed(borrowed), Borrowed(nil)), [2]Kind{KindBorrowed, KindBorrowed}, "borrowed-bytes", ""},
	}
	for _, tt := range tests {
		if tt.f.Name.Kind() != tt.kinds[0] || tt.f.Value.Kind() != tt.kinds[1] {
			t.Errorf("%s: kinds %v/%v, want %v", tt.name, tt.f.Name.Kind(), tt.f.Value.Kind(), tt.kinds)
		}
		if tt.f.Name.String() != tt.nameS || tt.f.Value.String() != tt.val {
			t.Errorf("%s: field %v, want %s: %s", tt.name, tt.f, tt.nameS, tt.val)
		}
		if tt.f.Name.Len() != len(tt.nameS) || string(tt.f.Value.UnsafeBytes()) != tt.val {
			t.Errorf("%s: Len/Bytes disagree", tt.name)
		}
	}
	// Owned and borrowed sides point at the caller's bytes: From copies nothing.
	f := From(Owned(owned), Borrowed(borrowed))
	if &f.Name.UnsafeBytes()[0] != &owned[0] || &f.Value.UnsafeBytes()[0] != &borrowed[0] {
		t.Error("From copied bytes")
	}
	if f.Name.IsAtom() || f.Name.Atom() != nil || !From(h, h).Name.IsAtom() {
		t.Error("IsAtom is wrong")
	}
	if From(h, h).Name.Atom() != h.Atom() {
		t.Error("Handle does not round-trip")
	}
}

func TestStrEqual(t *testing.T) {
	t1 := intern.New(intern.Limits{})
	t2 := intern.New(intern.Limits{})
	a1, _ := intern.Make(t1, "x-custom")
	a2, _ := intern.Make(t2, "x-custom") // same string, other interner
	b1, _ := intern.Make(t1, "x-other")
	strs := map[string]Str{
		"static":       strAtom(staticdata.KeyPath.Atom()),
		"interned1":    From(a1, a1).Name,
		"interned2":    From(a2, a2).Name,
		"interned3":    From(b1, b1).Name,
		"owned":        From(Owned("x-custom"), a1).Name,
		"borrowed":     From(Borrowed(":path"), a1).Name,
		"static-other": strAtom(staticdata.KeyAuthority.Atom()),
		"zero":         {},
		"empty":        From(Owned(nil), a1).Name,
	}
	for n1, s1 := range strs {
		for n2, s2 := range strs {
			want := s1.String() == s2.String()
			if got := s1.Equal(s2); got != want {
				t.Errorf("%s.Equal(%s) = %v, want %v", n1, n2, got, want)
			}
			if got := s1.EqualString(s2.String()); got != want {
				t.Errorf("%s.EqualString(%s) = %v, want %v", n1, n2, got, want)
			}
		}
	}
}

// TestFromIgnoresCapacity checks that a slice's capacity does not leak
// into the Str that From makes. Where int is 32 bits, a slice's length and
// capacity are adjacent 4-byte words, so reading the length as a uint64
// would take the capacity in as its high half, and a capacity of 2^24 or
// more would reach the kind bits. argWords reads it as a uint.
func TestFromIgnoresCapacity(t *testing.T) {
	b := make([]byte, 3, 1<<25)
	copy(b, "abc")
	f := From(Borrowed(b), Owned(b))
	if f.Name.Kind() != KindBorrowed || f.Name.Len() != 3 || f.Name.String() != "abc" || f.Sensitive() {
		t.Errorf("name: kind %v, len %d, %q, sensitive %v", f.Name.Kind(), f.Name.Len(), f.Name.String(), f.Sensitive())
	}
	if f.Value.Kind() != KindOwned || f.Value.Len() != 3 || f.Value.String() != "abc" {
		t.Errorf("value: kind %v, len %d, %q", f.Value.Kind(), f.Value.Len(), f.Value.String())
	}
}

// TestFromDoesNotAllocate checks that From allocates for no kind of side,
// in either build: under purego its type switches must not box a slice.
func TestFromDoesNotAllocate(t *testing.T) {
	tab := intern.New(intern.Limits{})
	h, _ := intern.Make(tab, "x-tenant-id")
	name, value := []byte("x-custom"), []byte("some-value")
	a := staticdata.KeyPath.Atom()
	var sink Field
	tests := []struct {
		name string
		f    func()
	}{
		{"static_borrowed", func() { sink = From(a, Borrowed(value)) }},
		{"interned_owned", func() { sink = From(h, Owned(value)) }},
		{"borrowed_owned", func() { sink = From(Borrowed(name), Owned(value)) }},
		{"owned_interned", func() { sink = From(Owned(name), h) }},
		{"static_static", func() { sink = From(a, a) }},
	}
	for _, tt := range tests {
		if n := testing.AllocsPerRun(100, tt.f); n != 0 {
			t.Errorf("%s: From allocates %v times", tt.name, n)
		}
	}
	_ = sink
}

// fromSafe is From's pure-Go twin, as -tags purego builds From: a type
// switch per side (fromSide) instead of reinterpreting the arguments' words.
func fromSafe[K, V Source](name K, value V) Field {
	return Field{Name: fromSide(name), Value: fromSide(value)}
}

// TestFromTwins compares From with its pure-Go twin, fromSafe, on every
// pair of kinds, with nil, empty and non-empty parts: the fields must be
// the same, tags included.
func TestFromTwins(t *testing.T) {
	h, _ := intern.Make(intern.New(intern.Limits{}), "x-twin")
	statics := []Static{nil, staticdata.KeyPath.Atom(), staticdata.Lookup("GET")}
	path, _ := intern.Lookup[string](nil, ":path")
	interned := []Interned{{}, h, path}
	bytes := [][]byte{nil, {}, []byte("v"), []byte("a longer value of bytes")}
	check := func(name string, got, want Field) {
		t.Helper()
		if !sameField(got, want) {
			t.Errorf("%s: From %#v, fromSafe %#v", name, got, want)
		}
	}
	for _, n := range statics {
		for _, v := range interned {
			check("static/interned", From(n, v), fromSafe(n, v))
		}
		for _, v := range bytes {
			check("static/owned", From(n, Owned(v)), fromSafe(n, Owned(v)))
			check("static/borrowed", From(n, Borrowed(v)), fromSafe(n, Borrowed(v)))
		}
	}
	for _, n := range interned {
		for _, v := range statics {
			check("interned/static", From(n, v), fromSafe(n, v))
		}
		for _, v := range bytes {
			check("interned/borrowed", From(n, Borrowed(v)), fromSafe(n, Borrowed(v)))
		}
	}
	for _, n := range bytes {
		for _, v := range bytes {
			check("owned/owned", From(Owned(n), Owned(v)), fromSafe(Owned(n), Owned(v)))
			check("borrowed/owned", From(Borrowed(n), Owned(v)), fromSafe(Borrowed(n), Owned(v)))
			check("owned/borrowed", From(Owned(n), Borrowed(v)), fromSafe(Owned(n), Borrowed(v)))
			check("borrowed/borrowed", From(Borrowed(n), Borrowed(v)), fromSafe(Borrowed(n), Borrowed(v)))
		}
		for _, v := range statics {
			check("borrowed/static", From(Borrowed(n), v), fromSafe(Borrowed(n), v))
		}
	}
}
