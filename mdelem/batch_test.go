package mdelem

import (
	"math"
	"testing"

	"github.com/metapack/metapack/intern"
	"github.com/metapack/metapack/staticdata"
)

func TestBatchAppendAndGet(t *testing.T) {
	b := NewBatch(4, 16)
	path := []byte("/pkg.Svc/Method")
	b.Append(From(staticdata.KeyMethod.Atom(), staticdata.Lookup("POST")))
	b.Append(From(Borrowed(":path"), Borrowed(path)))                           // a static name given as bytes
	b.Append(From(Borrowed("X-Custom"), Borrowed("v1")))                        // an unknown name
	b.Append(From(staticdata.KeyContentType.Atom(), Owned("application/grpc"))) // owned value
	b.Append(From(Borrowed(":path"), Borrowed("/second")))                      // duplicate key
	path[1] = 'X'                                                               // the batch copied it

	if b.Len() != 5 {
		t.Fatalf("Len = %d", b.Len())
	}
	f, ok := b.Get(staticdata.KeyPath)
	if !ok || f.Value.String() != "/pkg.Svc/Method" || f.Key() != staticdata.KeyPath {
		t.Fatalf("Get(:path) = %v, %v", f, ok)
	}
	if f.Name.Kind() != KindStatic || f.Name.Atom() != staticdata.KeyPath.Atom() {
		t.Errorf(":path given as bytes was not upgraded to its atom: %v", f.Name.Kind())
	}
	if f.Value.Kind() != KindOwned {
		t.Errorf("a copied value should be owned by the batch, is %v", f.Value.Kind())
	}
	if f, ok := b.Get(staticdata.KeyContentType); !ok || f.Value.String() != "application/grpc" {
		t.Errorf("Get(content-type) = %v, %v", f, ok)
	}
	if _, ok := b.Get(staticdata.KeyGrpcTimeout); ok {
		t.Error("Get(grpc-timeout) found a field that is not there")
	}
	for _, name := range []string{"X-Custom", ":path", "content-type"} {
		if _, ok := b.GetString(name); !ok {
			t.Errorf("GetString(%q) found nothing", name)
		}
		if _, ok := b.GetBytes([]byte(name)); !ok {
			t.Errorf("GetBytes(%q) found nothing", name)
		}
	}
	if _, ok := b.GetString("x-missing"); ok {
		t.Error("GetString found a missing name")
	}
	want := 0
	for i, f := range b.All() {
		if f.Name.String() != b.At(i).Name.String() {
			t.Errorf("All and At disagree at %d", i)
		}
		want += f.Size()
	}
	if b.Size() != want {
		t.Errorf("Size = %d, want %d", b.Size(), want)
	}
}

func TestBatchOwnedIsAdopted(t *testing.T) {
	b := NewBatch(1, 0)
	v := []byte("adopted")
	b.Append(From(staticdata.KeyUserAgent.Atom(), Owned(v)))
	if got := b.At(0).Value.UnsafeBytes(); len(got) != len(v) || &got[0] != &v[0] {
		t.Error("owned bytes were copied")
	}
}

func TestBatchInternedStaticHandleIsStatic(t *testing.T) {
	tab := intern.New(intern.Limits{})
	h, _ := intern.Make(tab, "te")
	b := NewBatch(1, 0)
	b.Append(From(h, staticdata.Lookup("trailers")))
	if f := b.At(0); f.Name.Kind() != KindStatic || f.Key() != staticdata.KeyTe {
		t.Errorf("field %v: kind %v key %v", f, f.Name.Kind(), f.Key())
	}
}

func TestBatchResetReusesMemory(t *testing.T) {
	b := NewBatch(16, 1024)
	name, value := []byte("x-custom-header"), []byte("some-borrowed-value-of-moderate-length")
	fill := func() {
		b.Reset()
		for range 10 {
			b.Append(From(Borrowed(name), Borrowed(value)))
			b.Append(From(staticdata.KeyPath.Atom(), Borrowed(value)))
		}
		if _, ok := b.Get(staticdata.KeyPath); !ok {
			t.Fatal("lost :path")
		}
	}
	fill()
	if n := testing.AllocsPerRun(100, fill); n != 0 {
		t.Errorf("a reused batch allocates %v times per fill", n)
	}
	b.Reset()
	if b.Len() != 0 || b.Size() != 0 {
		t.Error("Reset left fields")
	}
	if _, ok := b.Get(staticdata.KeyPath); ok {
		t.Error("Reset left a slot")
	}
}

func TestBatchArenaGrowthKeepsEarlierFields(t *testing.T) {
	b := NewBatch(0, 0)
	var want []string
	for i := range 200 {
		v := string(rune('a'+i%26)) + "-value-that-needs-space"
		want = append(want, v)
		b.Append(From(Borrowed("x-k"), BorrowString(v)))
		// An atom name takes Append's fast path, which grows the arena too.
		want = append(want, v)
		b.Append(From(staticdata.KeyPath.Atom(), BorrowString(v)))
	}
	for i, f := range b.All() {
		if f.Value.String() != want[i] {
			t.Fatalf("field %d = %q, want %q", i, f.Value.String(), want[i])
		}
	}
}

// TestBatchResetDropsPinnedMemory checks that Reset forgets fields that
// point at memory the batch does not own (owned bytes, interned atoms,
// a replaced arena), whichever path appended them, so that a reused batch
// does not keep that memory alive.
func TestBatchResetDropsPinnedMemory(t *testing.T) {
	tab := intern.New(intern.Limits{})
	h, _ := intern.Make(tab, "x-interned")
	tests := []struct {
		name string
		f    Field
	}{
		{"owned name (slow path)", From(Owned("x-owned"), staticdata.Lookup("gzip"))},
		{"owned value", From(staticdata.KeyPath.Atom(), Owned("/owned"))},
		{"interned name", From(h, Borrowed("v"))},
		{"interned value (slow path)", From(Borrowed("x-k"), h)},
	}
	for _, tt := range tests {
		b := NewBatch(4, 64)
		b.Append(From(Borrowed("x-borrowed"), Borrowed("v"))) // slow path, pins nothing
		b.Append(tt.f)
		b.Reset()
		for i, f := range b.fields[:2] {
			if !sameField(f, Field{}) {
				t.Errorf("%s: after Reset, slot %d still holds %v", tt.name, i, f)
			}
		}
	}
}

// TestBatchCopiesEveryLength checks the arena copy of borrowed bytes, on
// both paths, for every length around the word sizes it special-cases.
func TestBatchCopiesEveryLength(t *testing.T) {
	src := make([]byte, 160)
	for i := range src {
		src[i] = byte('a' + i%26)
	}
	b := NewBatch(0, 0)
	var want []string
	for n := range 70 {
		b.Append(From(staticdata.KeyPath.Atom(), Borrowed(src[n:2*n]))) // fast path once the arena has room
		b.Append(From(Borrowed(src[:n]), Borrowed(src[1:n+1])))         // slow path
		want = append(want, string(src[n:2*n]), string(src[:n]), string(src[1:n+1]))
	}
	clear(src)
	var got []string
	for _, f := range b.All() {
		if f.Key() == staticdata.KeyPath {
			got = append(got, f.Value.String())
		} else {
			got = append(got, f.Name.String(), f.Value.String())
		}
	}
	if len(got) != len(want) {
		t.Fatalf("got %d strings, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("string %d = %q, want %q", i, got[i], want[i])
		}
	}
}

// TestBatchResetWrapsBase checks the slots across the Reset at which base
// wraps around to 0 and every slot is cleared.
func TestBatchResetWrapsBase(t *testing.T) {
	b := NewBatch(4, 64)
	b.base = 0xffffffff00000000 // the last base before the wrap
	b.Append(From(staticdata.KeyMethod.Atom(), staticdata.Lookup("GET")))
	b.Append(From(staticdata.KeyPath.Atom(), Borrowed("/a")))
	for round := range 3 {
		if f, ok := b.Get(staticdata.KeyPath); !ok || f.Value.String() != "/a" {
			t.Fatalf("round %d: Get(:path) = %v, %v", round, f, ok)
		}
		b.Reset()
		for _, k := range []staticdata.KeyID{staticdata.KeyMethod, staticdata.KeyPath, staticdata.KeyUnknown} {
			if f, ok := b.Get(k); ok {
				t.Fatalf("round %d: after Reset (base %#x), Get(%v) = %v", round, b.base, k, f)
			}
		}
		b.Append(From(staticdata.KeyPath.Atom(), Borrowed("/a")))
		if f, ok := b.Get(staticdata.KeyMethod); ok {
			t.Fatalf("round %d: Get(:method) = %v, from before Reset", round, f)
		}
	}
}

// TestNewBatchSizes checks that NewBatch takes any sizes, 0 and negative
// ones reserving nothing, and that the batch grows from them.
func TestNewBatchSizes(t *testing.T) {
	for _, tt := range []struct{ n, arena, wantN, wantArena int }{
		{0, 0, 0, 0},
		{-1, -1, 0, 0},
		{math.MinInt + 1, 5, 0, 5},
		{3, -7, 3, 0},
	} {
		b := NewBatch(tt.n, tt.arena)
		if cap(b.fields) != tt.wantN || cap(b.arena) != tt.wantArena {
			t.Errorf("NewBatch(%d, %d): room for %d fields, %d bytes; want %d, %d", tt.n, tt.arena, cap(b.fields), cap(b.arena), tt.wantN, tt.wantArena)
		}
		b.Append(FromStrings("x-custom", "value"))
		if b.Len() != 1 || !b.At(0).Value.EqualString("value") || b.Err() != nil {
			t.Errorf("NewBatch(%d, %d) then Append: Len %d, Err %v", tt.n, tt.arena, b.Len(), b.Err())
		}
	}
}

// TestAtOutOfRange checks that At answers the zero Field, not a panic,
// for an index outside the batch.
func TestAtOutOfRange(t *testing.T) {
	b := NewBatch(2, 16)
	b.Append(FromStrings(":path", "/"))
	for _, i := range []int{-1, 1, 2, math.MinInt, math.MaxInt} {
		if f := b.At(i); f.IsValid() || f.Name.Len() != 0 || f.Value.Len() != 0 || f.Sensitive() {
			t.Errorf("At(%d) = %v, want the zero Field", i, f)
		}
	}
	if f := b.At(0); !f.Name.EqualString(":path") {
		t.Errorf("At(0) = %v", f)
	}
}

// TestNewBatchHugeHints: hints of any size give a working batch without
// reserving more than maxHintFields fields and maxHintArena bytes.
func TestNewBatchHugeHints(t *testing.T) {
	for _, n := range []int{math.MaxInt, math.MaxInt - 1, maxHintFields + 1, math.MinInt} {
		b := NewBatch(n, n)
		if cap(b.fields) > maxHintFields || cap(b.arena) > maxHintArena {
			t.Fatalf("NewBatch(%d, %d) reserved %d fields and %d bytes", n, n, cap(b.fields), cap(b.arena))
		}
		b.Append(FromStrings("x-a", "b"))
		if b.Len() != 1 {
			t.Fatalf("NewBatch(%d, %d): Append gave %d fields", n, n, b.Len())
		}
	}
}
