package fuzz

import (
	"testing"

	"github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/mdelem"
	xhpack "golang.org/x/net/http2/hpack"
)

// tableSizes maps a fuzzer byte to a SETTINGS_HEADER_TABLE_SIZE.
var tableSizes = [...]uint32{4096, 0, 32, 100, 256, 1024, 4096, 65536}

// FuzzDecode decodes arbitrary bytes as up to three header blocks (split
// where the fuzzer says) with both decoders, and compares.
func FuzzDecode(f *testing.F) {
	for _, s := range decodeSeeds() {
		f.Add(s, uint64(3), byte(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, splitSeed uint64, sizeSel byte) {
		size := tableSizes[sizeSel%byte(len(tableSizes))]
		ours := newOurDecoder(size)
		theirs := xhpack.NewDecoder(size, nil)
		theirs.SetMaxStringLength(fuzzMaxString)
		batch := mdelem.NewBatch(0, 0)
		// The fuzzer's bytes hold up to three blocks separated by 0xff 0x00
		// 0xff, a sequence no decoder reaches as a whole in practice.
		for _, block := range splitBlocks(data) {
			frags := splitAt(block, splitSeed)
			batch.Reset()
			ourErr := ourDecode(ours, batch, frags)
			got := fromBatch(batch)
			hfs, xnetErr := xnetDecode(theirs, frags)
			want := fromXnet(hfs)
			if ourErr == nil && xnetErr == nil {
				if !equalFields(got, want) {
					t.Fatalf("block %x: ours %v, x/net %v", block, got, want)
				}
				continue
			}
			if (ourErr == nil) != (xnetErr == nil) {
				if difference(ourErr, xnetErr) == "" {
					t.Fatalf("block %x: ours %v, x/net %v: an unexplained disagreement", block, ourErr, xnetErr)
				}
			}
			// After any error one side's table may be out of step: stop.
			if ourErr != nil && !hpack.IsStreamError(ourErr) {
				return
			}
			if xnetErr != nil {
				return
			}
		}
	})
}

// splitBlocks cuts data at each 0xff 0x00 0xff, into at most three blocks.
func splitBlocks(data []byte) [][]byte {
	var blocks [][]byte
	for len(blocks) < 2 {
		i := indexSep(data)
		if i < 0 {
			break
		}
		blocks = append(blocks, data[:i])
		data = data[i+3:]
	}
	return append(blocks, data)
}

func indexSep(b []byte) int {
	for i := 0; i+2 < len(b); i++ {
		if b[i] == 0xff && b[i+1] == 0x00 && b[i+2] == 0xff {
			return i
		}
	}
	return -1
}
