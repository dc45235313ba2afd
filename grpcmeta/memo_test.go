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
		want := parseValue(a.String())
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
		status   uint32
		statusOK bool
	}{
		{"application/grpc", ContentTypeGRPC, CodingOther, 2, false},
		{"application/grpc+proto", ContentTypeProto, CodingOther, 2, false},
		{"gzip", ContentTypeOther, CodingGzip, 2, false},
		{"trailers", ContentTypeOther, CodingOther, 2, false},
		{"0", ContentTypeOther, CodingOther, 0, true},
		{"16", ContentTypeOther, CodingOther, 16, true},
		{"200", ContentTypeOther, CodingOther, 200, true},
		{"999", ContentTypeOther, CodingOther, 999, true},
		{"099", ContentTypeOther, CodingOther, 99, true},
		{"", ContentTypeOther, CodingOther, 2, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			for _, v := range []Value{ValueOf(mdelem.From(mdelem.BorrowString("x"), mdelem.BorrowString(tt.in)).Value), parseValue([]byte(tt.in))} {
				st, ok := v.Status()
				if v.ContentType() != tt.ct || v.Coding() != tt.coding || st != tt.status || ok != tt.statusOK {
					t.Errorf("%q: %d %d %d %v", tt.in, v.ContentType(), v.Coding(), st, ok)
				}
			}
			if v := ValueOf(mdelem.From(mdelem.BorrowString("x"), mdelem.BorrowString(tt.in)).Value); codingBits(v) != parseAcceptEncoding(tt.in) {
				t.Errorf("Accepts %08b", codingBits(v))
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
						if got, want := ValueOf(s), parseValue(s.String()); got != want {
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

// codingBits returns the set of codings v accepts, bit c for Coding c.
func codingBits(v Value) uint8 {
	var s uint8
	for c := range Coding(8) {
		if v.Accepts(c) {
			s |= 1 << c
		}
	}
	return s
}
