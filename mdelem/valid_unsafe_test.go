//go:build !purego

package mdelem

import (
	"reflect"
	"testing"
	"unsafe"

	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/staticdata"
)

// forgeAtom returns a copy of a with its unexported field name set to v,
// as only unsafe code can: an atom that is no copy of any real one.
func forgeAtom(t *testing.T, a *staticdata.Atom, name string, v uint64) *staticdata.Atom {
	t.Helper()
	c := *a
	sf, ok := reflect.TypeFor[staticdata.Atom]().FieldByName(name)
	if !ok {
		t.Fatalf("staticdata.Atom has no field %s", name)
	}
	p := unsafe.Add(unsafe.Pointer(&c), sf.Offset)
	switch sf.Type.Size() {
	case 1:
		*(*uint8)(p) = uint8(v)
	case 2:
		*(*uint16)(p) = uint16(v)
	default:
		t.Fatalf("field %s has size %d", name, sf.Type.Size())
	}
	return &c
}

// TestAppendForgedKey checks that no atom, not even one that unsafe code
// gave a key past the well-known ones or an ID past the static tier,
// makes Append, Get, Field.Key, Str.Kind, Equal or Handle panic, on any
// path; and that a key past the slots fills no slot.
func TestAppendForgedKey(t *testing.T) {
	forged := []*staticdata.Atom{
		forgeAtom(t, staticdata.KeyPath.Atom(), "key", 66),
		forgeAtom(t, staticdata.KeyPath.Atom(), "key", 200),
		forgeAtom(t, staticdata.KeyPath.Atom(), "key", 255),
		forgeAtom(t, staticdata.Lookup("GET"), "id", tier.NumAtoms),
		forgeAtom(t, staticdata.Lookup("GET"), "id", 500),
		forgeAtom(t, staticdata.KeyTe.Atom(), "id", 0), // the ID of "", the string "te"
	}
	for i, a := range forged {
		for _, p := range appendPaths {
			b := p.make()
			p.add(b, From(a, a))
			p.add(b, From(Borrowed("x-k"), a))
			if b.Len() != 2 {
				t.Fatalf("forged atom %d, %s path: Len %d", i, p.name, b.Len())
			}
			f := b.At(0)
			if k := f.Key(); k >= tier.NumKeys {
				t.Errorf("forged atom %d, %s path: Key %d", i, p.name, k)
			}
			_ = f.Name.Kind()
			if !f.Name.Equal(f.Value) || !f.Name.Equal(strAtom(a)) || !f.Name.EqualString(a.String()) {
				t.Errorf("forged atom %d, %s path: not equal to itself", i, p.name)
			}
			if f.Name.Equal(strAtom(staticdata.KeyAuthority.Atom())) {
				t.Errorf("forged atom %d, %s path: equals :authority", i, p.name)
			}
			for k := range staticdata.KeyID(255) {
				if g, ok := b.Get(k); ok && k != a.Key() {
					t.Errorf("forged atom %d, %s path: Get(%d) = %v", i, p.name, k, g)
				}
			}
		}
	}
}
