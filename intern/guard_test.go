package intern

import (
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"
	"github.com/metapack/metapack/internal/guardpage"
	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/staticdata"
)

// guardMaxLen is the longest input the guard-page tests try: past 64, so
// that seededHash's 32-byte stripes and every word path of sameBytes run up
// to the guard.
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

// TestEqualAtGuard runs equal and sameBytes on both shapes with both
// operands against a guard page, for every length, on equal inputs and on
// inputs that differ at each position.
func TestEqualAtGuard(t *testing.T) {
	r := guardpage.NewRegion(t, guardMaxLen)
	for _, side := range sides {
		for n := 0; n <= guardMaxLen; n++ {
			s := guardString(n, byte(n))
			gs := side.string(t, s) // the table's side, at a guard too
			for pos := -1; pos < n; pos++ {
				want := pos < 0
				c := []byte(s)
				if pos >= 0 {
					c[pos] ^= 0x80
				}
				b := side.bytes(r, c)
				if got := equal(gs, b); got != want {
					t.Fatalf("%s: equal(len %d, diff at %d) = %v", side.name, n, pos, got)
				}
				if got := sameBytes(gs, b); got != want {
					t.Fatalf("%s: sameBytes(len %d, diff at %d) = %v", side.name, n, pos, got)
				}
				if pos == -1 || pos == 0 || pos == n-1 {
					// The string shape, with both strings at guards.
					bs := side.string(t, string(c))
					if got := equal(gs, bs); got != want {
						t.Fatalf("%s: equal(string, len %d, diff at %d) = %v", side.name, n, pos, got)
					}
				}
			}
		}
	}
}

// TestHashAtGuard runs seededHash, on both shapes, on inputs against a guard
// page for every length, and checks it against xxhash.
func TestHashAtGuard(t *testing.T) {
	r := guardpage.NewRegion(t, guardMaxLen)
	const seed = 0x0123456789abcdef
	for _, side := range sides {
		for n := 0; n <= guardMaxLen; n++ {
			s := guardString(n, 3)
			d := xxhash.NewWithSeed(seed)
			d.WriteString(s)
			want := d.Sum64()
			if got := seededHash(side.bytes(r, []byte(s)), seed); got != want {
				t.Errorf("%s: seededHash(len %d) = %#x, want %#x", side.name, n, got, want)
			}
			if got := seededHash(side.string(t, s), seed); got != want {
				t.Errorf("%s: seededHash(string, len %d) = %#x, want %#x", side.name, n, got, want)
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
			want, ok := tbl.MakeString(strings.Clone(hit))
			if !ok {
				t.Fatalf("MakeString(len %d) not interned", n)
			}
			check := func(what string, h Handle, ok bool, want Handle) {
				t.Helper()
				if h != want || ok != want.IsValid() {
					t.Fatalf("%s: %s(len %d) = %p, %v; want %p", side.name, what, n, h.Atom(), ok, want.Atom())
				}
			}
			h, ok := tbl.Lookup(side.bytes(r, []byte(hit)))
			check("Lookup hit", h, ok, want)
			h, ok = tbl.Make(side.bytes(r, []byte(hit)))
			check("Make hit", h, ok, want)
			gs := side.string(t, hit)
			h, ok = tbl.LookupString(gs)
			check("LookupString hit", h, ok, want)
			h, ok = tbl.MakeString(gs)
			check("MakeString hit", h, ok, want)

			// Misses: the same length, the last byte changed.
			if n > 0 {
				miss := []byte(hit)
				miss[n-1] ^= 0x20 // upper case: no atom, nor any string interned here, has it
				h, ok = tbl.Lookup(side.bytes(r, miss))
				check("Lookup miss", h, ok, Handle{})
				h, ok = tbl.LookupString(side.string(t, string(miss)))
				check("LookupString miss", h, ok, Handle{})
			}

			// Interning from the guarded input copies it to its last byte.
			fresh := guardString(n, 2) + side.name
			if len(fresh) > guardMaxLen {
				fresh = fresh[len(fresh)-guardMaxLen:]
			}
			fresh = "x" + fresh[1:]
			h, ok = tbl.Make(side.bytes(r, []byte(fresh)))
			if !ok || h.String() != fresh {
				t.Fatalf("%s: Make(new, len %d) = %q, %v", side.name, len(fresh), h.String(), ok)
			}
			fresh2 := "y" + fresh[1:]
			h, ok = tbl.MakeString(side.string(t, fresh2))
			if !ok || h.String() != fresh2 {
				t.Fatalf("%s: MakeString(new, len %d) = %q, %v", side.name, len(fresh2), h.String(), ok)
			}

			for _, s := range static {
				if len(s) != n {
					continue
				}
				want := FromAtom(staticdata.Lookup([]byte(s)))
				h, ok := tbl.Make(side.bytes(r, []byte(s)))
				check("Make static", h, ok, want)
				h, ok = tbl.LookupString(side.string(t, s))
				check("LookupString static", h, ok, want)
			}
		}
	}
}

// TestStaticAtGuard runs Static and StaticString with inputs against a
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
			want := FromAtom(a)
			if h, ok := Static(side.bytes(r, []byte(s))); h != want || ok != (a != nil) {
				t.Errorf("%s: Static(%q) = %p, %v; want %p", side.name, s, h.Atom(), ok, a)
			}
			if h, ok := StaticString(side.string(t, s)); h != want || ok != (a != nil) {
				t.Errorf("%s: StaticString(%q) = %p, %v; want %p", side.name, s, h.Atom(), ok, a)
			}
		}
	}
}
