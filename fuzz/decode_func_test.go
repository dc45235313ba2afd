package fuzz

import (
	"testing"

	"github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/mdelem"
)

// FuzzDecodeFunc decodes the same blocks, split the same way, into a batch
// with DecodeFragment and through a function with DecodeFragmentFunc, and
// requires the same fields, errors and dynamic table: the function path
// must not drop, add or reorder a field, nor skip a limit. Its values are
// copies kept by the dynamic table too: they are the table's strings for
// later indexed fields, for eviction, and when the table's rings grow.
func FuzzDecodeFunc(f *testing.F) {
	fuzzFieldPath(f, "through the function", func(d *hpack.Decoder, frag []byte, last bool, add func(mdelem.Field)) error {
		return d.DecodeFragmentFunc(add, frag, last)
	})
}

// fuzzFieldPath fuzzes a decoding path that hands fields to a function:
// decode decodes one fragment, passing each field to add. Every block,
// split at the same points, must give the same fields, errors and dynamic
// table as DecodeFragment into a batch; via names the path in failures.
func fuzzFieldPath(f *testing.F, via string, decode func(d *hpack.Decoder, frag []byte, last bool, add func(mdelem.Field)) error) {
	for _, s := range decodeSeeds() {
		f.Add(s, uint64(5), byte(1))
	}
	f.Fuzz(func(t *testing.T, data []byte, splitSeed uint64, sizeSel byte) {
		size := tableSizes[sizeSel%byte(len(tableSizes))]
		viaBatch, viaPath := newOurDecoder(size), newOurDecoder(size)
		b := mdelem.NewBatch(0, 0)
		var fields []field
		add := func(f mdelem.Field) { fields = append(fields, field{f.Name.String(), f.Value.String(), f.Sensitive()}) }
		for i, block := range splitBlocks(data) {
			frags := splitAt(block, splitSeed)
			b.Reset()
			want := decodeState(viaBatch, b, ourDecode(viaBatch, b, frags))
			fields = fields[:0]
			var err error
			for j, frag := range frags {
				if err = decode(viaPath, frag, j == len(frags)-1, add); err != nil {
					break
				}
			}
			if got := fieldsState(viaPath, fields, err); got != want {
				t.Fatalf("block %d %x: %s\n%s\nvia the batch\n%s", i, block, via, got, want)
			}
		}
	})
}
