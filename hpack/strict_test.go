package hpack

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"github.com/metapack/metapack/intern"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// TestDecodeEmptyBlockWhileUpdateRequired checks RFC 9113 §4.3.1: after
// our SETTINGS lowered the table size, the next block must start with a
// size update, and an empty block lacks it too.
func TestDecodeEmptyBlockWhileUpdateRequired(t *testing.T) {
	for _, fragmented := range []bool{false, true} {
		d := NewDecoder(DefaultTableSize)
		d.SetAllowedMaxDynamicTableSize(100)
		b := mdelem.NewBatch(0, 0)
		var err error
		if fragmented {
			err = d.DecodeFragment(b, nil, true)
		} else {
			err = d.Decode(b, nil)
		}
		var de *DecodingError
		if !errors.As(err, &de) || !errors.Is(err, ErrSizeUpdateMissing) {
			t.Errorf("fragmented %v: empty block after a lower setting: %v, want ErrSizeUpdateMissing", fragmented, err)
		}
	}
	// With the update, an otherwise empty block is fine.
	d := NewDecoder(DefaultTableSize)
	d.SetAllowedMaxDynamicTableSize(100)
	if err := d.Decode(mdelem.NewBatch(0, 0), appendInt(nil, reprSizeUpdate, 5, 100)); err != nil {
		t.Errorf("block of just the update: %v", err)
	}
}

// TestDecodeWhileFragmentOpen checks that Decode during an open
// DecodeFragment block fails with ErrBlockOpen, without poisoning the
// decoder: the open block still completes.
func TestDecodeWhileFragmentOpen(t *testing.T) {
	d := NewDecoder(DefaultTableSize)
	b := mdelem.NewBatch(0, 0)
	if err := d.DecodeFragment(b, []byte{0x82}, false); err != nil {
		t.Fatal(err)
	}
	if err := d.Decode(b, []byte{0x84}); !errors.Is(err, ErrBlockOpen) {
		t.Fatalf("Decode during an open block: %v, want ErrBlockOpen", err)
	}
	if err := d.DecodeFragment(b, []byte{0x86}, true); err != nil {
		t.Fatalf("the open block after ErrBlockOpen: %v", err)
	}
	if got := batchPairs(b); len(got) != 2 || got[0] != [2]string{":method", "GET"} || got[1] != [2]string{":scheme", "http"} {
		t.Errorf("fields %q", got)
	}
}

// TestDynamicEntryOutOfRange checks that the Decoder and the Encoder both
// report an index outside the table with ok false and empty strings,
// including the index equal to the length, where the Decoder used to
// return an evicted entry and the Encoder panicked.
func TestDynamicEntryOutOfRange(t *testing.T) {
	e := policyEncoder{NewEncoder(DefaultTableSize), func(mdelem.Field) indexing { return indexIncremental }}
	d := NewDecoder(DefaultTableSize)
	b := mdelem.NewBatch(0, 0)
	// Two blocks of one entry each, the first evicted by a size update in
	// between so that the decoder's ring holds a stale entry past the end.
	for i, v := range []string{"first", "second"} {
		if i == 1 {
			e.SetMaxDynamicTableSize(0)
			e.SetMaxDynamicTableSize(DefaultTableSize)
			d.SetAllowedMaxDynamicTableSize(0)
			d.SetAllowedMaxDynamicTableSize(DefaultTableSize)
		}
		b.Reset()
		b.Append(mdelem.From(mdelem.BorrowString("x-a"), mdelem.BorrowString(v)))
		block := e.AppendBlock(nil, b)
		b.Reset()
		if err := d.Decode(b, block); err != nil {
			t.Fatal(err)
		}
	}
	for _, side := range []struct {
		name  string
		entry func(int) (string, string, bool)
		len   func() int
	}{{"decoder", d.DynamicEntry, d.table.Len}, {"encoder", e.dynamicEntry, e.dynamicTableLen}} {
		if n := side.len(); n != 1 {
			t.Fatalf("%s: %d entries, want 1", side.name, n)
		}
		if n, v, ok := side.entry(0); !ok || n != "x-a" || v != "second" {
			t.Errorf("%s: entry 0 = %q, %q, %v", side.name, n, v, ok)
		}
		for _, i := range []int{1, 2, -1, math.MaxInt} {
			if n, v, ok := side.entry(i); ok || n != "" || v != "" {
				t.Errorf("%s: DynamicEntry(%d) = %q, %q, %v; want out of range", side.name, i, n, v, ok)
			}
		}
	}
}

// TestAppendFieldLooksUpByteNames checks that a field whose name is given
// as bytes encodes through AppendField as through AppendBlock: the name is
// looked up in the static table, so :method: GET is one byte and adds no
// entry.
func TestAppendFieldLooksUpByteNames(t *testing.T) {
	for _, tc := range []struct{ name, value string }{
		{":method", "GET"}, {":path", "/x"}, {"content-type", "application/grpc"}, {"x-custom", "v"},
	} {
		f := mdelem.From(mdelem.BorrowString(tc.name), mdelem.BorrowString(tc.value))
		b := mdelem.NewBatch(1, 64)
		b.Append(f)
		viaBlock := NewEncoder(DefaultTableSize).AppendBlock(nil, b)
		viaField := NewEncoder(DefaultTableSize).AppendField(nil, f)
		if !bytes.Equal(viaBlock, viaField) {
			t.Errorf("%s: %s: AppendField %x, AppendBlock %x", tc.name, tc.value, viaField, viaBlock)
		}
	}
	e := NewEncoder(DefaultTableSize)
	if got := e.AppendField(nil, mdelem.From(mdelem.BorrowString(":method"), mdelem.BorrowString("GET"))); len(got) != 1 || e.dynamicTableLen() != 0 {
		t.Errorf(":method: GET through AppendField: %x, %d entries; want one byte and none", got, e.dynamicTableLen())
	}
}

// TestAppendFieldDropsInvalid checks that a field with a part that holds no
// string (the zero intern.Handle, a nil atom) never reaches the wire
// through AppendField, as it cannot through a batch.
func TestAppendFieldDropsInvalid(t *testing.T) {
	for _, f := range []mdelem.Field{
		mdelem.From(intern.Handle{}, mdelem.BorrowString("v")),
		mdelem.From(staticdata.KeyStatus.Atom(), staticdata.Lookup("201")),
		mdelem.From(mdelem.Static(nil), mdelem.Static(nil)),
	} {
		e := NewEncoder(DefaultTableSize)
		if got := e.AppendField([]byte("pre"), f); string(got) != "pre" || e.dynamicTableLen() != 0 {
			t.Errorf("invalid field %v: AppendField wrote %x", f, got[min(3, len(got)):])
		}
	}
}
