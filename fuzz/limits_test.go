package fuzz

import (
	"errors"
	"fmt"
	"testing"

	"github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/mdelem"
)

// FuzzStringLimitSync decodes the fuzzer's bytes as up to three header
// blocks, in fragments, with a decoder under the fuzzer's string limit and
// one without: where the unlimited one decodes a block, the limited one
// must either decode the same fields or return a limit *DecodingError for the
// string length with a prefix of them, and after every block both
// dynamic tables must be the same. A limit a peer reaches must never put
// the table out of step.
func FuzzStringLimitSync(f *testing.F) {
	for _, s := range decodeSeeds() {
		f.Add(s, uint64(3), uint8(4))
	}
	f.Fuzz(func(t *testing.T, data []byte, splitSeed uint64, limit uint8) {
		limited, free := hpack.NewDecoder(4096), hpack.NewDecoder(4096)
		limited.SetMaxStringLength(int(limit) + 1)
		for _, d := range []*hpack.Decoder{limited, free} {
			d.SetMaxHeaderListSize(-1)
			d.SetMaxFields(-1)
		}
		free.SetMaxStringLength(-1)
		lb, fb := mdelem.NewBatch(0, 0), mdelem.NewBatch(0, 0)
		for i, block := range splitBlocks(data) {
			frags := splitAt(block, splitSeed)
			lb.Reset()
			fb.Reset()
			freeErr := ourDecode(free, fb, frags)
			limitedErr := ourDecode(limited, lb, frags)
			if freeErr != nil {
				return // a malformed block: nothing to compare after it
			}
			got, want := fromBatch(lb), fromBatch(fb)
			switch {
			case limitedErr == nil:
				if !equalFields(got, want) {
					t.Fatalf("block %d %x: limited %v, unlimited %v", i, block, got, want)
				}
			case errors.Is(limitedErr, hpack.ErrStringLength) && hpack.IsStreamError(limitedErr):
				if len(got) > len(want) || !equalFields(got, want[:len(got)]) {
					t.Fatalf("block %d %x: limited %v (%v), not a prefix of %v", i, block, got, limitedErr, want)
				}
			default:
				t.Fatalf("block %d %x: limited decoder: %v; unlimited decodes it", i, block, limitedErr)
			}
			if lt, ft := tableOf(limited), tableOf(free); lt != ft {
				t.Fatalf("block %d %x: limited table %s, unlimited %s", i, block, lt, ft)
			}
		}
	})
}

// tableOf describes a decoder's dynamic table.
func tableOf(d *hpack.Decoder) string {
	size, max := d.DynamicTableSize()
	s := fmt.Sprintf("%d/%d:", size, max)
	for i := 0; ; i++ {
		n, v, ok := d.DynamicEntry(i)
		if !ok {
			break
		}
		s += fmt.Sprintf(" %q=%q", n, v)
	}
	return s
}
