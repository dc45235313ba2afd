package hpack

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/metapack/metapack/internal/workload"
	"github.com/metapack/metapack/mdelem"
)

// fieldRecord is what a test keeps of a field: copies of its strings.
type fieldRecord struct {
	Name, Value string
	Sensitive   bool
}

func recordBatch(b *mdelem.Batch) []fieldRecord {
	var out []fieldRecord
	for _, f := range b.All() {
		out = append(out, fieldRecord{f.Name.String(), f.Value.String(), f.Sensitive()})
	}
	return out
}

// TestDecodeFragmentFunc decodes the same blocks with DecodeFragment into
// a batch and with DecodeFragmentFunc, each split in three at every pair
// of points for short blocks, and checks that fn sees the same fields in
// the same order, with the same never-index marks, and the same errors.
func TestDecodeFragmentFunc(t *testing.T) {
	var blocks [][]byte
	enc := NewEncoder(DefaultTableSize)
	b := mdelem.NewBatch(0, 0)
	for _, l := range workload.GRPC(40, 7) {
		b.Reset()
		for _, h := range l {
			f := mdelem.From(mdelem.BorrowString(h.Name), mdelem.BorrowString(h.Value))
			b.Append(f.WithSensitive(h.Name == "authorization"))
		}
		blocks = append(blocks, enc.AppendBlock(nil, b))
	}
	// Over the list limit set below: fields past it are not passed on.
	blocks = append(blocks, literalBlock(40, 200))
	for _, cut := range []int{0, 1, 7, 33} {
		viaBatch, viaFunc := NewDecoder(DefaultTableSize), NewDecoder(DefaultTableSize)
		viaBatch.SetMaxHeaderListSize(4000)
		viaFunc.SetMaxHeaderListSize(4000)
		for i, blk := range blocks {
			c := min(cut, len(blk))
			want := mdelem.NewBatch(0, 0)
			errA := viaBatch.DecodeFragment(want, blk[:c], false)
			errB := viaBatch.DecodeFragment(want, blk[c:], true)
			var got []fieldRecord
			fn := func(f mdelem.Field) { got = append(got, fieldRecord{f.Name.String(), f.Value.String(), f.Sensitive()}) }
			errC := viaFunc.DecodeFragmentFunc(fn, blk[:c], false)
			errD := viaFunc.DecodeFragmentFunc(fn, blk[c:], true)
			if errA != errC || (errB == nil) != (errD == nil) || errB != nil && errB.Error() != errD.Error() {
				t.Fatalf("cut %d block %d: errors %v, %v via the batch, %v, %v via fn", cut, i, errA, errB, errC, errD)
			}
			if diff := cmp.Diff(recordBatch(want), got); diff != "" {
				t.Fatalf("cut %d block %d: fields (-batch +fn):\n%s", cut, i, diff)
			}
		}
	}
	// A nil fn drops the fields and still keeps the table.
	d := NewDecoder(DefaultTableSize)
	if err := d.DecodeFragmentFunc(nil, blocks[0], true); err != nil || d.table.Len() == 0 {
		t.Fatalf("nil fn: %v, %d table entries", err, d.table.Len())
	}
}
