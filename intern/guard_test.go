package intern

import (
	"strings"
	"testing"

	"github.com/metapack/metapack/internal/guardpage"
	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/staticdata"
	"hash/maphash"
)

// guardMaxLen is the longest input the guard-page tests try.
const guardMaxLen = 80

// guardString returns a string of n bytes that is not in the static tier:
// it starts with 'x' and ends with a byte no atom ends with at that length
// when seed varies.
func guardString(n int, seed byte) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = 'a' + (byte(i)+seed)%26
	}
	if n > 0 {
		b[0] = 'x'
	}
	return string(b)
}

// sides are the two placements of an input: its last byte just before a
// guard page, or its first byte just after one.
var sides = []struct {
	name   string
	bytes  func(r *guardpage.Region, b []byte) []byte
	string func(t testing.TB, s string) string
}{
	{"before", (*guardpage.Region).CopyBefore, guardpage.StringBefore},
	{"after", (*guardpage.Region).CopyAfter, guardpage.StringAfter},
}

// TestHashAtGuard runs seededHash, on both shapes and a named type, on
// inputs against a guard page for every length, and checks it against
// maphash.
func TestHashAtGuard(t *testing.T) {
	type name string
	r := guardpage.NewRegion(t, guardMaxLen)
	seed := maphash.MakeSeed()
	for _, side := range sides {
		for n := 0; n <= guardMaxLen; n++ {
			s := guardString(n, 3)
			want := maphash.String(seed, s)
			if got := seededHash(seed, side.bytes(r, []byte(s))); got != want {
				t.Errorf("%s: seededHash(len %d) = %#x, want %#x", side.name, n, got, want)
			}
			gs := side.string(t, s)
			if got := seededHash(seed, gs); got != want {
				t.Errorf("%s: seededHash(string, len %d) = %#x, want %#x", side.name, n, got, want)
			}
			if got := seededHash(seed, name(gs)); got != want {
				t.Errorf("%s: seededHash(named, len %d) = %#x, want %#x", side.name, n, got, want)
			}
		}
	}
}

// TestInternAtGuard runs Make, MakeString, Lookup and LookupString with
// inputs against a guard page, for every length: strings interned before
// (the equality runs to the last byte), strings interned from the guarded
// input itself, misses, and static-tier strings.
func TestInternAtGuard(t *testing.T) {
	r := guardpage.NewRegion(t, guardMaxLen)
	tbl := New(Limits{MaxEntries: 4096, MaxBytes: 1 << 20, MaxLen: guardMaxLen})
	var static []string
	for i := range tier.NumAtoms {
		static = append(static, tier.ByID(i).String())
	}
	for _, side := range sides {
		for n := 0; n <= guardMaxLen; n++ {
			hit := guardString(n, 1)
			want, ok := Make(tbl, strings.Clone(hit))
			if !ok {
				t.Fatalf("Make/string(len %d) not interned", n)
			}
			check := func(what string, h Handle, ok bool, want Handle) {
				t.Helper()
				if h != want || ok != (want.Atom() != nil) {
					t.Fatalf("%s: %s(len %d) = %p, %v; want %p", side.name, what, n, h.Atom(), ok, want.Atom())
				}
			}
			h, ok := Lookup(tbl, side.bytes(r, []byte(hit)))
			check("Lookup hit", h, ok, want)
			h, ok = Make(tbl, side.bytes(r, []byte(hit)))
			check("Make hit", h, ok, want)
			gs := side.string(t, hit)
			h, ok = Lookup(tbl, gs)
			check("Lookup/string hit", h, ok, want)
			h, ok = Make(tbl, gs)
			check("Make/string hit", h, ok, want)

			// Misses: the same length, the last byte changed.
			if n > 0 {
				miss := []byte(hit)
				miss[n-1] ^= 0x20 // upper case: no atom, nor any string interned here, has it
				h, ok = Lookup(tbl, side.bytes(r, miss))
				check("Lookup miss", h, ok, Handle{})
				h, ok = Lookup(tbl, side.string(t, string(miss)))
				check("Lookup/string miss", h, ok, Handle{})
			}

			// Interning from the guarded input copies it to its last byte.
			fresh := guardString(n, 2) + side.name
			if len(fresh) > guardMaxLen {
				fresh = fresh[len(fresh)-guardMaxLen:]
			}
			fresh = "x" + fresh[1:]
			h, ok = Make(tbl, side.bytes(r, []byte(fresh)))
			if !ok || h.Atom().String() != fresh {
				t.Fatalf("%s: Make(new, len %d) = %q, %v", side.name, len(fresh), h.Atom().String(), ok)
			}
			fresh2 := "y" + fresh[1:]
			h, ok = Make(tbl, side.string(t, fresh2))
			if !ok || h.Atom().String() != fresh2 {
				t.Fatalf("%s: Make(new, len %d) = %q, %v", side.name, len(fresh2), h.Atom().String(), ok)
			}

			for _, s := range static {
				if len(s) != n {
					continue
				}
				want := Handle{staticdata.Lookup(s)}
				h, ok := Make(tbl, side.bytes(r, []byte(s)))
				check("Make static", h, ok, want)
				h, ok = Lookup(tbl, side.string(t, s))
				check("Lookup/string static", h, ok, want)
			}
		}
	}
}

// TestStaticAtGuard runs Lookup on a nil table with inputs against a
// guard page: every static-tier string, and for every length a string that
// is not one and one that differs from an atom in its middle byte only.
func TestStaticAtGuard(t *testing.T) {
	r := guardpage.NewRegion(t, guardMaxLen)
	var inputs []string
	for i := range tier.NumAtoms {
		s := tier.ByID(i).String()
		inputs = append(inputs, s)
		if len(s) > 2 {
			m := []byte(s)
			m[len(m)/2+1] ^= 0x01
			inputs = append(inputs, string(m))
		}
	}
	for n := 0; n <= guardMaxLen; n++ {
		inputs = append(inputs, guardString(n, 5))
	}
	for _, side := range sides {
		for _, s := range inputs {
			a := staticdata.Lookup(s)
			if h, ok := Lookup(nil, side.bytes(r, []byte(s))); h.Atom() != a || ok != (a != nil) {
				t.Errorf("%s: Lookup(nil, %q) = %p, %v; want %p", side.name, s, h.Atom(), ok, a)
			}
			if h, ok := Lookup(nil, side.string(t, s)); h.Atom() != a || ok != (a != nil) {
				t.Errorf("%s: Lookup(nil, string %q) = %p, %v; want %p", side.name, s, h.Atom(), ok, a)
			}
		}
	}
}
