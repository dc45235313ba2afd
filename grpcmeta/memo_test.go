package grpcmeta

import (
	"fmt"
	"github.com/metapack/metapack/intern"
	"sync"
	"testing"

	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// TestValueOfStatic checks ValueOf on every static atom against parsing
// its string, twice (the second from the memo), and what Value reads.
func TestValueOfStatic(t *testing.T) {
	for id := range tier.NumAtoms {
		a := tier.ByID(id)
		want := ParseValue(a.String())
		for range 2 {
			if got := ValueOf(mdelem.StrOf(mdelem.Static(a))); got != want {
				t.Fatalf("ValueOf(%q) = %x, want %x", a.String(), got.bits, want.bits)
			}
		}
	}
	tests := []struct {
		in       string
		ct       ContentType
		coding   Coding
		status   Code
		statusOK bool
		trailers bool
		http     int
	}{
		{"application/grpc", ContentTypeGRPC, CodingOther, Unknown, false, false, 0},
		{"application/grpc+proto", ContentTypeProto, CodingOther, Unknown, false, false, 0},
		{"gzip", ContentTypeOther, CodingGzip, Unknown, false, false, 0},
		{"trailers", ContentTypeOther, CodingOther, Unknown, false, true, 0},
		{"0", ContentTypeOther, CodingOther, OK, true, false, 0},
		{"16", ContentTypeOther, CodingOther, Unauthenticated, true, false, 0},
		{"200", ContentTypeOther, CodingOther, 200, true, false, 200},
		{"999", ContentTypeOther, CodingOther, 999, true, false, 999},
		{"099", ContentTypeOther, CodingOther, 99, true, false, 0},
		{"", ContentTypeOther, CodingOther, Unknown, false, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			for _, v := range []Value{ValueOf(mdelem.From(mdelem.BorrowString("x"), mdelem.BorrowString(tt.in)).Value), ParseValue([]byte(tt.in))} {
				st, ok := v.Status()
				if v.ContentType() != tt.ct || v.Coding() != tt.coding || st != tt.status || ok != tt.statusOK || v.Trailers() != tt.trailers || v.HTTPStatus() != tt.http {
					t.Errorf("%q: %d %d %d %v %v %d", tt.in, v.ContentType(), v.Coding(), st, ok, v.Trailers(), v.HTTPStatus())
				}
			}
			if v := ValueOf(mdelem.From(mdelem.BorrowString("x"), mdelem.BorrowString(tt.in)).Value); v.Codings() != ParseAcceptEncoding(tt.in) {
				t.Errorf("Codings %08b", v.Codings())
			}
		})
	}
}

// TestValueOfInterned checks ValueOf on interned atoms, from several
// goroutines and tables at once, with more atoms than the memo has slots,
// so that entries are evicted and taken again: every answer must be the
// parse of the atom's own string.
func TestValueOfInterned(t *testing.T) {
	const tables, perTable = 4, 3 * memoSlots
	var wg sync.WaitGroup
	for ti := range tables {
		tab := newTable(t)
		strs := make([]mdelem.Str, perTable)
		for i := range strs {
			s := fmt.Sprintf("application/grpc+t%d", i)
			switch i % 4 {
			case 1:
				s = fmt.Sprint(1000 + i) // a status
			case 2:
				s = fmt.Sprintf("gzip,x%d", i)
			}
			h, ok := intern.Make(tab, s)
			if !ok || h.Atom().Key() != staticdata.KeyUnknown || staticdata.Lookup(s) != nil {
				t.Fatalf("%q not interned", s)
			}
			strs[i] = mdelem.StrOf(mdelem.Interned(h))
		}
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for r := range 3 {
					for i := range strs {
						s := strs[(i*(g+1)+r+ti)%len(strs)]
						if got, want := ValueOf(s), ParseValue(s.String()); got != want {
							t.Errorf("ValueOf(%q) = %x, want %x", s.String(), got.bits, want.bits)
							return
						}
					}
				}
			}()
		}
	}
	wg.Wait()
}
