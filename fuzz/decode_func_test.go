package fuzz

import (
	"testing"

	"github.com/metapack/metapack/mdelem"
)

// FuzzDecodeFunc decodes the same blocks, split the same way, into a batch
// with DecodeFragment and through a function with DecodeFragmentFunc, and
// requires the same fields, errors and dynamic table: the function path
// must not drop, add or reorder a field, nor skip a limit.
func FuzzDecodeFunc(f *testing.F) {
	for _, s := range decodeSeeds() {
		f.Add(s, uint64(5), byte(1))
	}
	f.Fuzz(func(t *testing.T, data []byte, splitSeed uint64, sizeSel byte) {
		size := tableSizes[sizeSel%byte(len(tableSizes))]
		viaBatch, viaFunc := newOurDecoder(size), newOurDecoder(size)
		b := mdelem.NewBatch(0, 0)
		for i, block := range splitBlocks(data) {
			frags := splitAt(block, splitSeed)
			b.Reset()
			want := decodeState(viaBatch, b, ourDecode(viaBatch, b, frags))
			var fields []field
			fn := func(f mdelem.Field) { fields = append(fields, field{f.Name.String(), f.Value.String(), f.Sensitive()}) }
			var err error
			for j, frag := range frags {
				if err = viaFunc.DecodeFragmentFunc(fn, frag, j == len(frags)-1); err != nil {
					break
				}
			}
			got := fieldsState(viaFunc, fields, err)
			if got != want {
				t.Fatalf("block %d %x: via the function\n%s\nvia the batch\n%s", i, block, got, want)
			}
		}
	})
}
