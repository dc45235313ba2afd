package hpack

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/metapack/metapack/mdelem"
)

// tableSizes are the table sizes the size tests try: every uint32 must work.
var tableSizes = []uint32{0, 1, 31, 32, 33, 100, 4095, 4096, 4097, 16384, 1 << 20, 1<<31 - 1, 1 << 31, 1<<31 + 1, 1<<32 - 2, 1<<32 - 1}

// TestTableSizesAnyUint32 runs every constructor and setter that takes a
// table size with each of tableSizes, then encodes and decodes blocks that
// fill the table: nothing may panic, and the decoder must follow the
// encoder.
func TestTableSizesAnyUint32(t *testing.T) {
	for _, size := range tableSizes {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			enc := policyEncoder{NewEncoder(size), func(mdelem.Field) indexing { return indexIncremental }}
			enc.SetMaxDynamicTableSizeLimit(size)
			dec := NewDecoder(size)
			if size < DefaultTableSize {
				// Our SETTINGS lowered the table from HTTP/2's 4096.
				dec = NewDecoder(DefaultTableSize)
				dec.SetAllowedMaxDynamicTableSize(size)
			}
			in, out := mdelem.NewBatch(0, 0), mdelem.NewBatch(0, 0)
			var block []byte
			for i := range 40 {
				if i == 20 {
					// A SETTINGS change to the same size on both sides.
					enc.SetMaxDynamicTableSize(size)
					dec.SetAllowedMaxDynamicTableSize(size)
				}
				in.Reset()
				for j := range 5 {
					in.Append(mdelem.From(mdelem.BorrowString(fmt.Sprintf("x-name-%d", j)), mdelem.BorrowString(fmt.Sprintf("value %d %d", i, j))))
				}
				block = enc.AppendBlock(block[:0], in)
				out.Reset()
				if err := dec.Decode(out, block); err != nil {
					t.Fatalf("block %d %x: %v", i, block, err)
				}
				if got, want := batchPairs(out), batchPairs(in); fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("block %d: decoded %q, want %q", i, got, want)
				}
				es, em := enc.dynamicTableSize()
				ds, dm := dec.DynamicTableSize()
				if es != ds || em != dm || enc.dynamicTableLen() != dec.table.Len() {
					t.Fatalf("block %d: encoder table %d/%d, %d entries; decoder %d/%d, %d", i, es, em, enc.dynamicTableLen(), ds, dm, dec.table.Len())
				}
			}
			// The decoder also takes the size update to its setting.
			d := NewDecoder(size)
			if err := d.Decode(out, appendInt(nil, reprSizeUpdate, 5, uint64(size))); err != nil {
				t.Errorf("size update to %d: %v", size, err)
			}
		})
	}
}

// TestTableMemoryFollowsContents checks that a Decoder or Encoder
// allocates for what its table holds, not for the size it may grow to: a
// new one allocates little whatever the size, and one that decoded a few
// small fields little more.
func TestTableMemoryFollowsContents(t *testing.T) {
	const most = 64 << 10 // far below any of the large sizes
	for _, size := range []uint32{1 << 20, 1 << 31, 1<<32 - 1} {
		got := allocatedBy(func() {
			d := NewDecoder(size)
			e := NewEncoder(size)
			e.SetMaxDynamicTableSizeLimit(size)
			b := mdelem.NewBatch(4, 64)
			b.Append(mdelem.From(mdelem.BorrowString("x-a"), mdelem.BorrowString("b")))
			if err := d.Decode(mdelem.NewBatch(4, 64), e.AppendBlock(nil, b)); err != nil {
				t.Error(err)
			}
			runtime.KeepAlive(d)
			runtime.KeepAlive(e)
		})
		if got > most {
			t.Errorf("size %d: a new Decoder and Encoder and one field took %d bytes, want at most %d", size, got, most)
		}
	}
}

// allocatedBy returns the bytes f allocates on the heap.
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
