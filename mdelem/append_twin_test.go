package mdelem

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/metapack/metapack/intern"
	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/staticdata"
)

// twinInput reads a test case from bytes; past the end it reads zeros.
type twinInput struct{ data []byte }

func (r *twinInput) byte() byte {
	if len(r.data) == 0 {
		return 0
	}
	c := r.data[0]
	r.data = r.data[1:]
	return c
}

// side returns a string of 0 to 100 bytes for one side of a field: a
// static atom's, which Append resolves a name given as bytes to, or bytes
// taken from the input.
func (r *twinInput) side() []byte {
	if c := r.byte(); c < 64 {
		return []byte(tier.ByID(int(r.byte()) % tier.NumAtoms).String())
	}
	n := int(r.byte()) % 101
	b := make([]byte, n)
	for i := range b {
		b[i] = r.byte()
	}
	return b
}

// str returns a Str of s in the kind k picks: a static atom (or an atom
// tagged static by From whatever its tier, or a copy of a static atom), an
// interned handle, owned or borrowed bytes, the zero Str (which Append
// rejects), or empty borrowed bytes with no pointer.
// A borrowed Str's bytes are added to *scribble.
func twinStr(tab *intern.Table, k byte, s []byte, scribble *[][]byte) Str {
	switch k % 6 {
	case 0:
		if a := staticdata.Lookup(s); a != nil {
			if len(s)&1 != 0 {
				c := *a // a copy, which Append replaces by a
				return From(&c, a).Name
			}
			return From(a, a).Name
		}
		if h, ok := intern.Make(tab, s); ok {
			return From(h.Atom(), Owned(nil)).Name // tagged static, not in the static tier
		}
	case 1:
		if h, ok := intern.Make(tab, s); ok {
			return From(h, h).Name
		}
	case 2:
		return From(Owned(s), Owned(nil)).Name
	case 3:
		*scribble = append(*scribble, s)
		return borrowedStr(s)
	case 4:
		return Str{}
	case 5:
		return borrowedStr(nil)
	}
	return ownedStr(s)
}

// checkAppendTwins builds the fields the input describes into one batch
// through Append and into another through appendSafe, with the same Resets,
// and checks that the two agree on everything a caller can see.
func checkAppendTwins(t *testing.T, data []byte) {
	t.Helper()
	tab := intern.New(intern.Limits{})
	r := &twinInput{data}
	nf, na := int(r.byte()%8), int(r.byte())
	fast, safe := NewBatch(nf, na), NewBatch(nf, na)
	var want []twinWant
	for i := 0; len(r.data) > 0 && i < 64; i++ {
		op := r.byte()
		if op == 255 {
			fast.Reset()
			safe.Reset()
			want = want[:0]
			compareTwins(t, fast, safe, want)
			continue
		}
		var scribble [][]byte
		ns := twinStr(tab, op, r.side(), &scribble)
		vs := twinStr(tab, op>>3, r.side(), &scribble)
		if ns.IsValid() && vs.IsValid() {
			want = append(want, twinWant{[2]string{ns.String(), vs.String()}, [2]Str{ns, vs}})
		}
		f := Field{Name: ns, Value: vs}.WithSensitive(op&0x40 != 0)
		fast.Append(f)
		safe.append(f)
		for _, b := range scribble {
			for i := range b {
				b[i] = '#' // neither batch may keep the caller's borrowed bytes
			}
		}
		compareTwins(t, fast, safe, want)
		if t.Failed() {
			t.Fatalf("after field %d (%v)", i, f)
		}
	}
}

// twinWant is what a field appended to both twins holds: its strings, and
// the Strs it was made of.
type twinWant struct {
	s   [2]string
	was [2]Str
}

// compareTwins checks that batches a and b, built from the same fields,
// agree with each other and with want: the fields' bytes, kinds, atoms and
// marks, owned bytes adopted by both, the size, Get for every key, the
// arena's use, and pins.
func compareTwins(t *testing.T, a, b *Batch, want []twinWant) {
	t.Helper()
	if a.Len() != b.Len() || a.Size() != b.Size() || a.pins != b.pins {
		t.Fatalf("Len %d/%d, Size %d/%d, pins %v/%v", a.Len(), b.Len(), a.Size(), b.Size(), a.pins, b.pins)
	}
	if ae, be := a.Err(), b.Err(); (ae == nil) != (be == nil) || ae != nil && ae.Error() != be.Error() {
		t.Fatalf("Err %v/%v", ae, be)
	}
	if len(a.arena) != len(b.arena) || cap(a.arena) != cap(b.arena) {
		t.Errorf("arena len %d/%d cap %d/%d", len(a.arena), len(b.arena), cap(a.arena), cap(b.arena))
	}
	if a.Len() != len(want) {
		t.Fatalf("Len %d, want %d", a.Len(), len(want))
	}
	for i := range a.Len() {
		f, g := a.At(i), b.At(i)
		if f.Sensitive() != g.Sensitive() || f.Key() != g.Key() || f.Size() != g.Size() || f.IsPseudo() != g.IsPseudo() {
			t.Errorf("field %d: %v vs %v", i, f, g)
		}
		for j, s := range [][2]Str{{f.Name, g.Name}, {f.Value, g.Value}} {
			x, y := s[0], s[1]
			if x.Kind() != y.Kind() || x.kind() != y.kind() || x.Atom() != y.Atom() || x.IsAtom() != y.IsAtom() ||
				x.Len() != y.Len() || !bytes.Equal(x.UnsafeBytes(), y.UnsafeBytes()) || x.UnsafeString() != y.UnsafeString() ||
				!x.Equal(y) || !y.Equal(x) || x.tag&^lenMask != y.tag&^lenMask {
				t.Errorf("field %d side %d: %q (%v) vs %q (%v)", i, j, x.UnsafeBytes(), x.Kind(), y.UnsafeBytes(), y.Kind())
			}
			if x.String() != want[i].s[j] {
				t.Errorf("field %d side %d = %q, want %q", i, j, x.String(), want[i].s[j])
			}
			if x.kind() == KindBorrowed {
				t.Errorf("field %d side %d still borrowed", i, j)
			}
			// Owned bytes are adopted by both, not copied; borrowed bytes
			// copied into the current arenas sit at the same offsets.
			xb, yb := x.UnsafeBytes(), y.UnsafeBytes()
			if was := want[i].was[j]; was.kind() == KindOwned && len(xb) > 0 && x.Atom() == nil {
				if &xb[0] != &was.UnsafeBytes()[0] || &yb[0] != &xb[0] {
					t.Errorf("field %d side %d: owned bytes were copied", i, j)
				}
			} else if len(xb) > 0 && x.Atom() == nil {
				xo, xin := arenaOffset(a, xb)
				yo, yin := arenaOffset(b, yb)
				if xin != yin || xin && xo != yo {
					t.Errorf("field %d side %d: arena offsets %d,%v and %d,%v", i, j, xo, xin, yo, yin)
				}
			}
		}
	}
	for k := range staticdata.KeyID(tier.NumKeys) {
		f, ok := a.Get(k)
		g, ok2 := b.Get(k)
		if ok != ok2 || ok && (indexOf(a, f) != indexOf(b, g)) {
			t.Errorf("Get(%v): %v, %v vs %v, %v", k, f, ok, g, ok2)
		}
	}
}

// arenaOffset returns where p's first byte lies in b's current arena, if
// it does.
func arenaOffset(b *Batch, p []byte) (int, bool) {
	arena := b.arena[:cap(b.arena)]
	for i := range arena {
		if &arena[i] == &p[0] {
			return i, true
		}
	}
	return 0, false
}

// indexOf returns the index of f in b, or -1.
func indexOf(b *Batch, f Field) int {
	for i := range b.Len() {
		if sameField(b.At(i), f) {
			return i
		}
	}
	return -1
}

// TestAppendTwins compares Append with its bounds-checked twin appendSafe
// on random field lists: every kind on either side, lengths 0 to 100,
// static names given as bytes, batches of random capacities, Resets.
func TestAppendTwins(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 2))
	rounds := 3000
	if testing.Short() {
		rounds = 300
	}
	for range rounds {
		data := make([]byte, rng.IntN(2000))
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		checkAppendTwins(t, data)
	}
}

// FuzzAppendTwins is TestAppendTwins for the fuzzer.
func FuzzAppendTwins(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{4, 64, 3 | 3<<3, 200, 20, 'x', '-', 'k', 200, 3, 'a', 'b', 'c'}) // borrowed name and value
	f.Add([]byte{0, 0, 0 | 3<<3, 1, 2, 200, 17, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', 'q'})
	f.Add([]byte{2, 10, 2 | 1<<3 | 0x40, 200, 4, 'x', 'y', 'z', 'w', 200, 2, 'v', 'v', 255, 5 | 4<<3, 0, 0})
	f.Fuzz(checkAppendTwins)
}
