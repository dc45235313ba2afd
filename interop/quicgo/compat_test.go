package quicgo

import (
	"bytes"
	"testing"

	"github.com/metapack/metapack/interop/quicgo/quicqpack"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/qpack"
)

// TestByteCompat compares, for the same header lists (none sensitive), the
// bytes of qpack.Encoder without SetPeerSettings with quic-go/qpack's. It
// logs how many sections are identical and the sizes, and fails only if
// the two sections of a list decode differently with quic-go/qpack's
// decoder: the encoders may choose differently, for instance whether to
// Huffman-code a string that Huffman coding lengthens (quic-go/qpack always
// does). quic-go/qpack's empty section for an empty list is left out (see
// TestQuicGoEmptyList). Run with -v to see the numbers.
func TestByteCompat(t *testing.T) {
	inputs(t, func(t *testing.T, lists [][]quicqpack.Field, _ [][]bool) {
		qenc, qdec := quicqpack.NewEncoder(), quicqpack.NewDecoder()
		enc := qpack.NewEncoder()
		b := mdelem.NewBatch(32, 4096)
		var sec, es []byte
		var fromOurs, fromTheirs []quicqpack.Field
		var n, same, shorter, longer, sameSize, ours, theirs int
		firstLonger := -1
		for i, list := range lists {
			if len(list) == 0 {
				continue
			}
			theirSec, err := qenc.Encode(list)
			if err != nil {
				t.Fatalf("list %d: quic-go/qpack's Encode: %v", i, err)
			}
			if err := fillBatch(b, list, nil); err != nil {
				t.Fatalf("list %d: filling the batch: %v", i, err)
			}
			sec, es = enc.AppendSection(sec[:0], es[:0], uint64(4*i), b)
			if fromOurs, err = qdec.AppendFields(fromOurs[:0], sec); err != nil {
				t.Fatalf("list %d: quic-go/qpack's decoder on our section %s: %v", i, hexHead(sec), err)
			}
			if fromTheirs, err = qdec.AppendFields(fromTheirs[:0], theirSec); err != nil {
				t.Fatalf("list %d: quic-go/qpack's decoder on its own section %s: %v", i, hexHead(theirSec), err)
			}
			if d := diffFields(fromOurs, fromTheirs); d != "" {
				t.Fatalf("list %d: our section %s and quic-go/qpack's %s decode differently: %s", i, hexHead(sec), hexHead(theirSec), d)
			}
			n++
			ours += len(sec)
			theirs += len(theirSec)
			switch {
			case bytes.Equal(sec, theirSec):
				same++
			case len(sec) < len(theirSec):
				shorter++
			case len(sec) > len(theirSec):
				if longer++; firstLonger < 0 {
					firstLonger = i
					t.Logf("list %d: our section is longer, %d bytes to quic-go/qpack's %d: ours %s, theirs %s",
						i, len(sec), len(theirSec), hexHead(sec), hexHead(theirSec))
				}
			default:
				sameSize++
			}
		}
		t.Logf("%d sections: %d byte-identical, %d ours shorter, %d ours longer, %d same size but different bytes; "+
			"%d bytes ours, %d bytes quic-go/qpack's (ours/theirs = %.4f)",
			n, same, shorter, longer, sameSize, ours, theirs, float64(ours)/float64(max(theirs, 1)))
	})
}
