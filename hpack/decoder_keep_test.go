package hpack

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/metapack/metapack/mdelem"
)

// keepBlocks are a literal with incremental indexing of a custom value
// (x-k: v, both raw) and then, in a second block, two indexed fields of
// that entry (index 62).
var keepBlocks = [][]byte{
	{0x40, 0x03, 'x', '-', 'k', 0x05, 'v', 'a', 'l', 'u', 'e'},
	{0xbe, 0xbe},
}

// TestDecodeFragmentFuncKeeps: an indexed literal's value is passed to fn as
// owned bytes, a copy of the decoder's own; the table keeps that copy, and
// later indexed fields of the entry pass it to fn again, at the same
// address. A non-indexed literal's value is a copy too, elsewhere.
func TestDecodeFragmentFuncKeeps(t *testing.T) {
	d := NewDecoder(DefaultTableSize)
	var seen []mdelem.Str
	fn := func(f mdelem.Field) { seen = append(seen, f.Value) }
	blocks := append(keepBlocks[:len(keepBlocks):len(keepBlocks)],
		[]byte{0x0f, 0x2f, 0x05, 'v', 'a', 'l', 'u', 'e'}) // x/net's literal without indexing, name 62
	for i, blk := range blocks {
		if err := d.DecodeFragmentFunc(fn, blk, true); err != nil {
			t.Fatalf("block %d: %v", i, err)
		}
	}
	if len(seen) != 4 {
		t.Fatalf("fn saw %d fields, want 4", len(seen))
	}
	first := unsafe.SliceData(seen[0].UnsafeBytes())
	for i, v := range seen {
		if v.Atom() != nil || v.IsBorrowed() || v.String() != "value" {
			t.Errorf("field %d: value %q (atom %v, borrowed %v), want owned bytes", i, v.String(), v.Atom() != nil, v.IsBorrowed())
		}
		if same := unsafe.SliceData(v.UnsafeBytes()) == first; same != (i < 3) {
			t.Errorf("field %d: at the first copy's address is %v, want %v", i, same, i < 3)
		}
	}
	if name, value, ok := d.DynamicEntry(0); !ok || name != "x-k" || value != "value" {
		t.Errorf("table entry 0 = %q: %q, %v", name, value, ok)
	}
}

// TestDecodeFragmentFuncCopies: the copies are the decoder's, not views of
// the block: changing the block after the call changes neither what fn
// got nor the table.
func TestDecodeFragmentFuncCopies(t *testing.T) {
	d := NewDecoder(DefaultTableSize)
	var got []mdelem.Str
	blk := bytes.Clone(keepBlocks[0])
	if err := d.DecodeFragmentFunc(func(f mdelem.Field) { got = append(got, f.Value) }, blk, true); err != nil {
		t.Fatal(err)
	}
	for i := range blk {
		blk[i] = 'Z'
	}
	if len(got) != 1 || got[0].String() != "value" {
		t.Fatalf("fn got %v after the block changed", got)
	}
	if _, value, _ := d.DynamicEntry(0); value != "value" {
		t.Errorf("table entry 0 holds %q after the block changed", value)
	}
}

// TestDecodeFragmentFuncEmptyValue: an empty value is owned bytes of
// length 0, and the table keeps it.
func TestDecodeFragmentFuncEmptyValue(t *testing.T) {
	d := NewDecoder(DefaultTableSize)
	var seen []mdelem.Str
	fn := func(f mdelem.Field) { seen = append(seen, f.Value) }
	blocks := [][]byte{{0x40, 0x03, 'x', '-', 'e', 0x00}, {0xbe}}
	for i, blk := range blocks {
		if err := d.DecodeFragmentFunc(fn, blk, true); err != nil {
			t.Fatalf("block %d: %v", i, err)
		}
	}
	if len(seen) != 2 {
		t.Fatalf("fn called %d times, want 2", len(seen))
	}
	for i, v := range seen {
		if v.Atom() != nil || v.IsBorrowed() || v.Len() != 0 || !v.IsValid() {
			t.Errorf("field %d: value (atom %v, borrowed %v) of length %d, want empty owned bytes", i, v.Atom() != nil, v.IsBorrowed(), v.Len())
		}
	}
}

// TestDecodeFragmentFuncSlabs: values share slabs of keepSlabSize bytes,
// cut forward without overlap, and a value over keepSlabMax bytes gets
// memory of its own; Reset starts a new slab.
func TestDecodeFragmentFuncSlabs(t *testing.T) {
	d := NewDecoder(DefaultTableSize)
	d.SetMaxStringLength(-1)
	var spans [][]byte
	fn := func(f mdelem.Field) { spans = append(spans, f.Value.UnsafeBytes()) }
	small := strings.Repeat("s", keepSlabMax)
	big := strings.Repeat("b", keepSlabMax+1)
	var blk []byte
	for range 2 * keepSlabSize / keepSlabMax {
		blk = append(blk, literal(0x00, "x-s", small, false)...)
	}
	blk = append(blk, literal(0x00, "x-b", big, false)...)
	if err := d.DecodeFragmentFunc(fn, blk, true); err != nil {
		t.Fatal(err)
	}
	// The 2*perSlab values fill two slabs: the first perSlab the first
	// slab, the others the current one, in order.
	perSlab := keepSlabSize / keepSlabMax
	slab := unsafe.Pointer(unsafe.SliceData(d.others.b))
	for i, b := range spans[:len(spans)-1] {
		if string(b) != small || cap(b) != len(b) {
			t.Fatalf("value %d = %q, cap %d", i, b, cap(b))
		}
		p := unsafe.Pointer(unsafe.SliceData(b))
		switch {
		case i >= perSlab && p != unsafe.Add(slab, (i-perSlab)*keepSlabMax):
			t.Errorf("value %d is not at its place in the current slab", i)
		case i < perSlab && uintptr(p) >= uintptr(slab) && uintptr(p) < uintptr(slab)+keepSlabSize:
			t.Errorf("value %d is in the current slab, not the first", i)
		case i > 0 && i < perSlab && p != unsafe.Add(unsafe.Pointer(unsafe.SliceData(spans[i-1])), keepSlabMax):
			t.Errorf("value %d does not follow value %d in the first slab", i, i-1)
		}
	}
	last := spans[len(spans)-1]
	if string(last) != big || cap(last) != len(big) {
		t.Errorf("the long value has cap %d, want a slice of its own of %d", cap(last), len(big))
	}
	used := d.others.used
	d.Reset()
	if d.others.b != nil || d.others.used != 0 || used == 0 {
		t.Errorf("Reset kept the slab (%d bytes used before)", used)
	}
}

// TestDecodeFragmentFuncIndexedSlabs: the values of indexed literals are
// cut from slabs of their own, in order, whatever other values come
// between them, so that the table's small entries share slabs rather than
// each keeping one alive.
func TestDecodeFragmentFuncIndexedSlabs(t *testing.T) {
	d := NewDecoder(DefaultTableSize)
	var indexed [][]byte
	fn := func(f mdelem.Field) {
		if f.Name.String() == "x-i" {
			indexed = append(indexed, f.Value.UnsafeBytes())
		}
	}
	filler := strings.Repeat("f", keepSlabMax)
	var blk []byte
	for i := range 20 {
		blk = append(blk, literal(0x40, "x-i", fmt.Sprint(i%10), false)...) // one byte, indexed
		for range keepSlabSize / keepSlabMax {
			blk = append(blk, literal(0x00, "x-f", filler, false)...) // a slab's worth, not indexed
		}
	}
	if err := d.DecodeFragmentFunc(fn, blk, true); err != nil {
		t.Fatal(err)
	}
	if len(indexed) != 20 {
		t.Fatalf("%d indexed values", len(indexed))
	}
	for i := 1; i < len(indexed); i++ {
		if unsafe.Pointer(unsafe.SliceData(indexed[i])) != unsafe.Add(unsafe.Pointer(unsafe.SliceData(indexed[i-1])), 1) {
			t.Fatalf("indexed value %d is not right after value %d: other values came between them", i, i-1)
		}
	}
	if d.table.Len() == 0 {
		t.Fatal("nothing was indexed: the test proves nothing")
	}
}

// TestDecodeFragmentFuncNil: a nil fn drops the fields and the table
// still follows the peer.
func TestDecodeFragmentFuncNil(t *testing.T) {
	d := NewDecoder(DefaultTableSize)
	for i, blk := range keepBlocks {
		if err := d.DecodeFragmentFunc(nil, blk, true); err != nil {
			t.Fatalf("block %d: %v", i, err)
		}
	}
	if d.table.Len() != 1 {
		t.Fatalf("table holds %d entries, want 1", d.table.Len())
	}
}

// TestKeptTable: a table whose entries all have atom names and kept values
// grows and wraps around through evictions, and holds what Decode's table
// holds.
func TestKeptTable(t *testing.T) {
	kept, ref := NewDecoder(DefaultTableSize), NewDecoder(DefaultTableSize)
	fn := func(mdelem.Field) {}
	for i := range 500 {
		// user-agent (static name 58) with incremental indexing, values
		// of varying length, so that evictions leave the entry ring's
		// start anywhere when it grows.
		n := 1 + i%90
		blk := append([]byte{0x40 | 58, byte(n)}, strings.Repeat("v", n)...)
		if err := kept.DecodeFragmentFunc(fn, blk, true); err != nil {
			t.Fatalf("block %d: %v", i, err)
		}
		if err := ref.Decode(nil, blk); err != nil {
			t.Fatalf("block %d: %v", i, err)
		}
		if got, want := tablePairs(kept), tablePairs(ref); !slices.Equal(got, want) {
			t.Fatalf("after block %d the table holds\n%q\nwant\n%q", i, got, want)
		}
	}
}
