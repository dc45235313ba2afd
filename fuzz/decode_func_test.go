package fuzz

import (
	"bytes"
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

// FuzzDecodeKeep decodes the same blocks with DecodeFragment into a batch
// and with DecodeFragmentKeep, whose fn hands back an owned copy of each
// value for the dynamic table to keep, and checks that both give the same
// fields, errors and tables: kept values are the table's strings for
// later indexed fields, for eviction, and when the table's rings grow.
func FuzzDecodeKeep(f *testing.F) {
	for _, s := range decodeSeeds() {
		f.Add(s, uint64(5), byte(1))
	}
	f.Fuzz(func(t *testing.T, data []byte, splitSeed uint64, sizeSel byte) {
		size := tableSizes[sizeSel%byte(len(tableSizes))]
		viaBatch, viaKeep := newOurDecoder(size), newOurDecoder(size)
		b := mdelem.NewBatch(0, 0)
		for i, block := range splitBlocks(data) {
			frags := splitAt(block, splitSeed)
			b.Reset()
			want := decodeState(viaBatch, b, ourDecode(viaBatch, b, frags))
			var fields []field
			fn := func(f mdelem.Field) mdelem.Str {
				fields = append(fields, field{f.Name.String(), f.Value.String(), f.Sensitive()})
				if f.Value.Kind() == mdelem.KindOwned {
					return mdelem.Str{} // already one of these copies
				}
				return mdelem.StrOf(mdelem.Owned(bytes.Clone(f.Value.UnsafeBytes())))
			}
			var err error
			for j, frag := range frags {
				if err = viaKeep.DecodeFragmentKeep(fn, frag, j == len(frags)-1); err != nil {
					break
				}
			}
			got := fieldsState(viaKeep, fields, err)
			if got != want {
				t.Fatalf("block %d %x: keeping values\n%s\nvia the batch\n%s", i, block, got, want)
			}
		}
	})
}
