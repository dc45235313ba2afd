package fuzz

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/internal/twin"
	"github.com/metapack/metapack/mdelem"
)

// FuzzDecodeTwins decodes the fuzzer's bytes as up to three header blocks,
// split into fragments where the fuzzer says, with a Decoder on its fast
// paths and one on its pure-Go twins: the fields, the errors and the
// dynamic tables must agree after every block.
func FuzzDecodeTwins(f *testing.F) {
	for _, s := range decodeSeeds() {
		f.Add(s, uint64(3), byte(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, splitSeed uint64, sizeSel byte) {
		size := tableSizes[sizeSel%byte(len(tableSizes))]
		fast, safe := newOurDecoder(size), newOurDecoder(size)
		twin.UseSafeDecoder(safe)
		fb, sb := mdelem.NewBatch(0, 0), mdelem.NewBatch(0, 0)
		for i, block := range splitBlocks(data) {
			frags := splitAt(block, splitSeed)
			fb.Reset()
			sb.Reset()
			got := decodeState(fast, fb, ourDecode(fast, fb, frags))
			want := decodeState(safe, sb, ourDecode(safe, sb, frags))
			if got != want {
				t.Fatalf("block %d %x: fast\n%s\nsafe\n%s", i, block, got, want)
			}
		}
	})
}

// decodeState describes what decoding a block left: the fields (with
// their never-index marks), the error and the dynamic table.
func decodeState(d *hpack.Decoder, b *mdelem.Batch, err error) string {
	return fieldsState(d, fromBatch(b), err)
}

// fieldsState is decodeState for fields collected some other way.
func fieldsState(d *hpack.Decoder, fields []field, err error) string {
	var buf bytes.Buffer
	for _, f := range fields {
		fmt.Fprintf(&buf, "%q: %q %v\n", f.Name, f.Value, f.Sensitive)
	}
	fmt.Fprintf(&buf, "err %v\ntable %s", err, tableOf(d))
	return buf.String()
}
