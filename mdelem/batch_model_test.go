package mdelem

import (
	"errors"
	"github.com/metapack/metapack/internal/tier"
	"math/rand/v2"
	"testing"

	"github.com/metapack/metapack/intern"
	"github.com/metapack/metapack/staticdata"
)

// TestBatchModel appends random fields of every kind, length and path to
// batches of various capacities, with Resets between, and checks each
// batch against a plain list: the strings, the keys, Get's first match,
// Size, and that no field is left borrowed or pointing at the caller's
// bytes, which the test overwrites after each Append.
func TestBatchModel(t *testing.T) {
	tab := intern.New(intern.Limits{})
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"", "a", ":path", "te", "x-k", "grpc-timeout", "x-tenant-id", "content-type",
		"user-agent", "gzip", "application/grpc", "/helloworld.Greeter/SayHello", "greeter.internal:50051",
		"0123456789abcdefghijklmnopqrstuvwxyz-0123456789abcdefghijklmnopqrstuvwxyz"}
	// side returns a Str of s in a random kind, and the caller's buffer
	// for a borrowed one, which the test scribbles on after the Append.
	side := func(s string) (Str, []byte) {
		switch rng.IntN(5) {
		case 0:
			if a := staticdata.Lookup(s); a != nil {
				return strAtom(a), nil
			}
			fallthrough
		case 1:
			if h, ok := intern.Make(tab, s); ok {
				return strAtom(h.Atom()), nil
			}
			fallthrough
		case 2:
			return ownedStr([]byte(s)), nil
		case 3:
			if s == "" {
				// The zero Str holds no string: Append rejects the field.
				return Str{}, nil
			}
			fallthrough
		default:
			buf := make([]byte, len(s)+rng.IntN(3))
			copy(buf, s)
			return borrowedStr(buf[:len(s)]), buf
		}
	}
	for round := range 300 {
		b := NewBatch(rng.IntN(6), rng.IntN(80))
		for cycle := range 1 + rng.IntN(3) {
			if cycle > 0 {
				b.Reset()
			}
			type pair struct{ name, value string }
			var want []pair
			var wantErr error // the first rejection since Reset
			for range rng.IntN(20) {
				name, value := words[rng.IntN(len(words))], words[rng.IntN(len(words))]
				ns, nbuf := side(name)
				vs, vbuf := side(value)
				sensitive := rng.IntN(4) == 0
				b.Append(Field{Name: ns, Value: vs}.WithSensitive(sensitive))
				for _, buf := range [][]byte{nbuf, vbuf} {
					for i := range buf {
						buf[i] = '#'
					}
				}
				if !ns.IsValid() || !vs.IsValid() {
					if wantErr == nil {
						wantErr = ErrNoValue
						if !ns.IsValid() {
							wantErr = ErrNoName
						}
					}
					if !errors.Is(b.Err(), wantErr) || b.Len() != len(want) {
						t.Fatalf("round %d: rejected field: Err %v (want %v), Len %d (want %d)", round, b.Err(), wantErr, b.Len(), len(want))
					}
					continue
				}
				want = append(want, pair{name, value})
				if got := b.At(len(want) - 1); got.Sensitive() != sensitive {
					t.Fatalf("round %d: field %d sensitive = %v", round, len(want)-1, got.Sensitive())
				}
			}
			if b.Len() != len(want) {
				t.Fatalf("round %d: Len = %d, want %d", round, b.Len(), len(want))
			}
			if (b.Err() == nil) != (wantErr == nil) {
				t.Fatalf("round %d: Err = %v, want %v", round, b.Err(), wantErr)
			}
			size := 0
			first := map[staticdata.KeyID]int{}
			for i, w := range want {
				f := b.At(i)
				if f.Name.String() != w.name || f.Value.String() != w.value {
					t.Fatalf("round %d: field %d = %q: %q, want %q: %q", round, i, f.Name.String(), f.Value.String(), w.name, w.value)
				}
				for _, s := range []Str{f.Name, f.Value} {
					if s.kind() == KindBorrowed {
						t.Fatalf("round %d: field %d still borrowed", round, i)
					}
				}
				k := staticdata.KeyUnknown
				if a := staticdata.Lookup(w.name); a != nil {
					k = a.Key()
				}
				if f.Key() != k {
					t.Fatalf("round %d: field %d (%q) has key %d, want %d", round, i, w.name, f.Key(), k)
				}
				if _, seen := first[k]; !seen && k != staticdata.KeyUnknown {
					first[k] = i
				}
				size += len(w.name) + len(w.value) + 32
			}
			if b.Size() != size {
				t.Fatalf("round %d: Size = %d, want %d", round, b.Size(), size)
			}
			for k := range staticdata.KeyID(tier.NumKeys) {
				f, ok := b.Get(k)
				i, want := first[k]
				if ok != want || ok && !sameField(f, b.At(i)) {
					t.Fatalf("round %d: Get(%d) = %v, %v; want field %d, %v", round, k, f, ok, i, want)
				}
			}
		}
	}
}

// sameField reports whether f and g are the same field (see sameStr).
func sameField(f, g Field) bool { return sameStr(f.Name, g.Name) && sameStr(f.Value, g.Value) }
