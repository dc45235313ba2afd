package intern

import (
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/cespare/xxhash/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/staticdata"
)

func TestStaticTier(t *testing.T) {
	tbl := New(Limits{})
	none := New(Limits{MaxEntries: 1, MaxBytes: 1, MaxLen: 1}) // no room for dynamic strings
	var nilTable *Table
	for i := range tier.NumAtoms {
		a := tier.ByID(i)
		s := a.String()
		for _, tc := range []struct {
			name string
			f    func() (Handle, bool)
		}{
			{"Make/bytes", func() (Handle, bool) { return Make(tbl, []byte(s)) }},
			{"Make/string", func() (Handle, bool) { return Make(tbl, s) }},
			{"Lookup/bytes", func() (Handle, bool) { return Lookup(tbl, []byte(s)) }},
			{"Lookup/string", func() (Handle, bool) { return Lookup(tbl, s) }},
			{"Make/no room", func() (Handle, bool) { return Make(none, []byte(s)) }},
			{"Make/nil table", func() (Handle, bool) { return Make(nilTable, s) }},
		} {
			if h, ok := tc.f(); !ok || h.Atom() != a {
				t.Errorf("%s(%q) = %p, %v; want %p, true", tc.name, s, h.Atom(), ok, a)
			}
		}
	}
	if tbl.Len() != 0 || tbl.bytes.Load() != 0 || nilTable.Len() != 0 {
		t.Errorf("static strings were added to the table: Len %d, bytes %d", tbl.Len(), tbl.bytes.Load())
	}
	if h, _ := Make(tbl, ":path"); h.Atom() != staticdata.KeyPath.Atom() {
		t.Errorf("Make(:path) is not the :path atom")
	}
	if _, ok := Make(nilTable, "x-not-static"); ok {
		t.Errorf("a nil table interned x-not-static")
	}
}

func TestZeroHandle(t *testing.T) {
	var h Handle
	if h.Atom() != nil || h.Atom().String() != "" || h.Atom().Key() != staticdata.KeyUnknown {
		t.Errorf("zero Handle has non-zero accessors")
	}
}

func TestDynamic(t *testing.T) {
	tbl := New(Limits{})
	strs := []string{"x-request-kind", "application/grpc+thrift", "grpc-go/1.72.0", "X-Custom", "x-custom", "a"}
	handles := make([]Handle, len(strs))
	for i, s := range strs {
		if _, ok := Lookup(tbl, s); ok {
			t.Fatalf("Lookup/string(%q) found a string never interned", s)
		}
		buf := []byte(s)
		h, ok := Make(tbl, buf)
		if !ok {
			t.Fatalf("Make(%q) not interned", s)
		}
		copy(buf, strings.Repeat("!", len(buf))) // the table must not keep buf
		ta := h.Atom()
		if h.Atom().String() != s || tier.Len(ta) != len(s) || tier.Hash(ta) != xxhash.Sum64String(s) ||
			tier.IsStatic(ta) || tier.NameIndex(ta) != 0 || h.Atom().Key() != staticdata.KeyUnknown ||
			h.Atom().IsName() != (s != "X-Custom" && s != "application/grpc+thrift" && s != "grpc-go/1.72.0") {
			t.Errorf("Make(%q): wrong accessors %+v", s, *h.Atom())
		}
		handles[i] = h
	}
	for i, s := range strs {
		for _, tc := range []struct {
			name string
			f    func() (Handle, bool)
		}{
			{"Make", func() (Handle, bool) { return Make(tbl, []byte(s)) }},
			{"Make/string", func() (Handle, bool) { return Make(tbl, s) }},
			{"Make/string(clone)", func() (Handle, bool) { return Make(tbl, strings.Clone(s)) }},
			{"Lookup", func() (Handle, bool) { return Lookup(tbl, []byte(s)) }},
			{"Lookup/string", func() (Handle, bool) { return Lookup(tbl, s) }},
		} {
			if h, ok := tc.f(); !ok || h != handles[i] {
				t.Errorf("%s(%q) = %p, %v; want %p, true", tc.name, s, h.Atom(), ok, handles[i].Atom())
			}
		}
		for j := range strs {
			if i != j && handles[i] == handles[j] {
				t.Errorf("%q and %q share a handle", strs[i], strs[j])
			}
		}
	}
	if tbl.Len() != len(strs) {
		t.Errorf("Len = %d, want %d", tbl.Len(), len(strs))
	}
	wantBytes := 0
	for _, s := range strs {
		wantBytes += entrySize + allocSize(len(s))
	}
	if int(tbl.bytes.Load()) != wantBytes {
		t.Errorf("Bytes = %d, want %d", int(tbl.bytes.Load()), wantBytes)
	}
	// Another table has its own handles for dynamic strings.
	other := New(Limits{})
	if h, _ := Make(other, strs[0]); h == handles[0] {
		t.Errorf("two tables share a dynamic handle")
	}
}

func TestBounds(t *testing.T) {
	ten := strings.Repeat("x", 10)
	cost := entrySize + allocSize(10)
	tests := []struct {
		name    string
		limits  Limits
		strs    []string
		wantIn  []bool
		wantLen int
	}{
		{"too long", Limits{MaxEntries: 10, MaxBytes: 1 << 20, MaxLen: 9},
			[]string{ten, ten[:9]}, []bool{false, true}, 1},
		{"entries full", Limits{MaxEntries: 2, MaxBytes: 1 << 20, MaxLen: 100},
			[]string{"x-a", "x-b", "x-c", "x-a", "x-d"}, []bool{true, true, false, true, false}, 2},
		{"bytes full", Limits{MaxEntries: 100, MaxBytes: 2*cost + cost - 1, MaxLen: 100},
			[]string{ten + "1", ten + "2", ten + "3", ten + "1"}, []bool{true, true, false, true}, 2},
		{"no room", Limits{MaxEntries: 1, MaxBytes: 1, MaxLen: 1},
			[]string{"x-a", ":path"}, []bool{false, true}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tbl := New(tc.limits)
			var got []bool
			for _, s := range tc.strs {
				h, ok := Make(tbl, s)
				if ok != (h.Atom() != nil) || (ok && h.Atom().String() != s) {
					t.Errorf("Make/string(%q) = %q, %v", s, h.Atom().String(), ok)
				}
				got = append(got, ok)
			}
			if diff := cmp.Diff(tc.wantIn, got); diff != "" {
				t.Errorf("interned mismatch (-want +got):\n%s", diff)
			}
			if tbl.Len() != tc.wantLen || tbl.Len() > tbl.limits.MaxEntries || int(tbl.bytes.Load()) > tbl.limits.MaxBytes {
				t.Errorf("Len %d, Bytes %d; want Len %d within %+v", tbl.Len(), int(tbl.bytes.Load()), tc.wantLen, tc.limits)
			}
		})
	}
}

// TestNewClampsLimits checks that New takes a zero limit as its default, a
// negative one as none of its own and a huge MaxEntries as the largest it
// allows, instead of panicking.
func TestNewClampsLimits(t *testing.T) {
	for _, tc := range []struct{ in, want Limits }{
		{Limits{}, Limits{MaxEntries: 2048, MaxBytes: 256 << 10, MaxLen: 256}},
		{Limits{MaxEntries: -1, MaxBytes: 1 << 10, MaxLen: 64}, Limits{MaxEntries: maxEntriesLimit, MaxBytes: 1 << 10, MaxLen: 64}},
		{Limits{MaxEntries: 8, MaxBytes: -1, MaxLen: 64}, Limits{MaxEntries: 8, MaxBytes: math.MaxInt, MaxLen: 64}},
		{Limits{MaxEntries: 8, MaxBytes: 1 << 10, MaxLen: math.MinInt}, Limits{MaxEntries: 8, MaxBytes: 1 << 10, MaxLen: math.MaxInt}},
		{Limits{MaxEntries: math.MaxInt, MaxBytes: 1 << 10, MaxLen: 64}, Limits{MaxEntries: maxEntriesLimit, MaxBytes: 1 << 10, MaxLen: 64}},
	} {
		tbl := New(tc.in)
		if got := tbl.limits; got != tc.want {
			t.Errorf("New(%+v).Limits() = %+v, want %+v", tc.in, got, tc.want)
		}
		_, ok := Make(tbl, "x-not-static")
		if want := tc.want.MaxEntries > 0 && tc.want.MaxBytes > 0 && tc.want.MaxLen > 0; ok != want {
			t.Errorf("New(%+v): interned %v, want %v", tc.in, ok, want)
		}
	}
}

func TestIndexSize(t *testing.T) {
	for _, n := range []int{1, 8, 9, 100, 1024, 1025} {
		tbl := New(Limits{MaxEntries: n})
		if s := len(tbl.slots); s < 2*n || s < 16 || (s >= 4*n && s > 16) || s&(s-1) != 0 {
			t.Errorf("MaxEntries %d: %d slots", n, s)
		}
	}
}

func TestAllocSize(t *testing.T) {
	// Go's size classes up to 32 KiB; allocSize must be an upper bound.
	classes := []int{8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256,
		288, 320, 352, 384, 416, 448, 480, 512, 576, 640, 704, 768, 896, 1024, 1152, 1280, 1408,
		1536, 1792, 2048, 2304, 2688, 3072, 3200, 3456, 4096, 4864, 5376, 6144, 6528, 6784, 6912,
		8192, 9472, 9728, 10240, 10880, 12288, 13568, 14336, 16384, 18432, 19072, 20480, 21760,
		24576, 27264, 28672, 32768}
	c := 0
	for n := 1; n <= 32768; n++ {
		for classes[c] < n {
			c++
		}
		if got := allocSize(n); got < classes[c] || got > n+n/2+16 {
			t.Fatalf("allocSize(%d) = %d; size class %d", n, got, classes[c])
		}
	}
}

func TestHitsDoNotAllocate(t *testing.T) {
	tbl := New(Limits{})
	for _, s := range []string{"x-request-kind", "application/grpc+thrift; charset=utf-8 and more", "content-type", ""} {
		b := []byte(s)
		if _, ok := Make(tbl, b); !ok {
			t.Fatalf("Make(%q) not interned", s)
		}
		for name, f := range map[string]func(){
			"Make":          func() { Make(tbl, b) },
			"Make/string":   func() { Make(tbl, s) },
			"Lookup":        func() { Lookup(tbl, b) },
			"Lookup/string": func() { Lookup(tbl, s) },
			"LookupMiss":    func() { Lookup(tbl, []byte("x-missing-string")) },
		} {
			if n := testing.AllocsPerRun(100, f); n != 0 {
				t.Errorf("%s(%q): %v allocs per run, want 0", name, s, n)
			}
		}
	}
}

// TestConcurrentSame has many goroutines intern the same strings at once:
// all must get the same handle, and the table must hold each string once.
func TestConcurrentSame(t *testing.T) {
	const goroutines, rounds, distinct = 8, 50, 64
	for r := 0; r < rounds; r++ {
		// Each goroutine may hold one reservation it will give back.
		tbl := New(Limits{MaxEntries: distinct + goroutines, MaxBytes: 1 << 20, MaxLen: 64})
		got := make([][]Handle, goroutines)
		var start, wg sync.WaitGroup
		start.Add(1)
		for g := range goroutines {
			wg.Add(1)
			go func() {
				defer wg.Done()
				start.Wait()
				hs := make([]Handle, distinct)
				for i := range distinct {
					k := (i + g*7) % distinct // different orders
					var ok bool
					hs[k], ok = Make(tbl, fmt.Appendf(nil, "x-key-%d", k))
					if !ok {
						t.Errorf("Make(x-key-%d) not interned", k)
					}
				}
				got[g] = hs
			}()
		}
		start.Done()
		wg.Wait()
		for g := 1; g < goroutines; g++ {
			for i := range distinct {
				if got[g][i] != got[0][i] {
					t.Fatalf("round %d: goroutines 0 and %d got different handles for x-key-%d", r, g, i)
				}
			}
		}
		if tbl.Len() != distinct {
			t.Fatalf("round %d: Len %d, want %d", r, tbl.Len(), distinct)
		}
		if want := distinct * (entrySize + 16); int(tbl.bytes.Load()) != want {
			t.Fatalf("round %d: Bytes %d, want %d", r, int(tbl.bytes.Load()), want)
		}
	}
}

// TestConcurrentDifferent has goroutines intern different strings into a
// table too small for all of them, while others look them up.
func TestConcurrentDifferent(t *testing.T) {
	const goroutines, perG = 8, 500
	limits := Limits{MaxEntries: goroutines * perG / 2, MaxBytes: 1 << 30, MaxLen: 64}
	tbl := New(limits)
	var wg sync.WaitGroup
	var mu sync.Mutex
	interned := map[string]Handle{}
	for g := range goroutines {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for i := range perG {
				s := fmt.Sprintf("x-g%d-%d", g, i)
				if h, ok := Make(tbl, s); ok {
					if h.Atom().String() != s {
						t.Errorf("Make/string(%q) = %q", s, h.Atom().String())
					}
					mu.Lock()
					interned[s] = h
					mu.Unlock()
				}
			}
		}()
		go func() { // a reader of another goroutine's strings
			defer wg.Done()
			for i := range perG {
				s := fmt.Sprintf("x-g%d-%d", (g+1)%goroutines, i)
				if h, ok := Lookup(tbl, s); ok && h.Atom().String() != s {
					t.Errorf("Lookup/string(%q) = %q", s, h.Atom().String())
				}
			}
		}()
	}
	wg.Wait()
	if len(interned) != limits.MaxEntries || tbl.Len() != limits.MaxEntries {
		t.Errorf("interned %d, Len %d; want %d", len(interned), tbl.Len(), limits.MaxEntries)
	}
	for s, h := range interned {
		if got, ok := Lookup(tbl, s); !ok || got != h {
			t.Errorf("Lookup/string(%q) = %p, %v; want %p", s, got.Atom(), ok, h.Atom())
		}
	}
}
