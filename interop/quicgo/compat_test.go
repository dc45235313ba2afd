package quicgo

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/metapack/metapack/interop/quicgo/quicqpack"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/qpack"
)

// sizeTally counts how two encoders' outputs for the same inputs compare.
type sizeTally struct {
	n, same, shorter, longer, sameSize int
	ours, theirs                       int
}

func (s *sizeTally) add(ours, theirs []byte) {
	s.n++
	s.ours += len(ours)
	s.theirs += len(theirs)
	switch {
	case bytes.Equal(ours, theirs):
		s.same++
	case len(ours) < len(theirs):
		s.shorter++
	case len(ours) > len(theirs):
		s.longer++
	default:
		s.sameSize++
	}
}

func (s *sizeTally) String() string {
	return fmt.Sprintf("%d byte-identical, %d ours shorter, %d ours longer, %d same size but other bytes; "+
		"%d bytes ours, %d quic-go/qpack's (ours/theirs %.4f)",
		s.same, s.shorter, s.longer, s.sameSize, s.ours, s.theirs, float64(s.ours)/float64(max(s.theirs, 1)))
}

// TestByteCompat compares, for the same header lists (none marked
// sensitive), the sections of qpack.Encoder without SetPeerSettings with
// quic-go/qpack's, whole and one field at a time (a static-only field line
// does not depend on the fields before it). It fails only if the two
// sections of a list decode differently with quic-go/qpack's decoder, and
// logs the rest (run with -v): the encoders may differ, as qpack.Encoder
// sends a string raw where Huffman coding does not shorten it (quic-go/qpack
// always Huffman-codes, even the empty string), and sends authorization,
// proxy-authorization and short cookies as never-indexed literals, where
// quic-go/qpack clears the N bit or uses an exact static match. A field on
// which ours is longer for any other reason is logged as such.
// quic-go/qpack's empty section for an empty list is left out (see
// TestQuicGoEmptyList).
func TestByteCompat(t *testing.T) {
	inputs(t, func(t *testing.T, lists [][]quicqpack.Field, _ [][]bool) {
		qenc, qdec := quicqpack.NewEncoder(), quicqpack.NewDecoder()
		enc := qpack.NewEncoder()
		b := mdelem.NewBatch(32, 4096)
		var sec, theirs []byte
		var fromOurs, fromTheirs []quicqpack.Field
		var sections, fields sizeTally
		policyLonger, otherLonger := 0, 0
		for i, list := range lists {
			if len(list) == 0 {
				continue
			}
			sec, theirs = encodeBoth(t, enc, qenc, b, sec, theirs, list)
			var err error
			if fromOurs, err = qdec.AppendFields(fromOurs[:0], sec); err != nil {
				t.Fatalf("list %d: quic-go/qpack's decoder on our section %s: %v", i, hexHead(sec), err)
			}
			if fromTheirs, err = qdec.AppendFields(fromTheirs[:0], theirs); err != nil {
				t.Fatalf("list %d: quic-go/qpack's decoder on its own section %s: %v", i, hexHead(theirs), err)
			}
			if d := diffFields(fromOurs, fromTheirs); d != "" {
				t.Fatalf("list %d: our section %s and quic-go/qpack's %s decode differently: %s", i, hexHead(sec), hexHead(theirs), d)
			}
			sections.add(sec, theirs)
			for _, f := range list {
				sec, theirs = encodeBoth(t, enc, qenc, b, sec, theirs, []quicqpack.Field{f})
				fields.add(sec, theirs)
				switch {
				case len(sec) <= len(theirs):
				case neverIndexedByPolicy(f):
					policyLonger++
				default:
					if otherLonger++; otherLonger <= errorLimit {
						t.Logf("list %d: ours is longer on field %s, which the policy does not make never-indexed: ours %s, theirs %s",
							i, show(f), hexHead(sec), hexHead(theirs))
					}
				}
			}
		}
		t.Logf("%d sections: %v", sections.n, &sections)
		t.Logf("%d fields, each alone: %v; of the %d on which ours is longer, %d are never-indexed by the policy, %d are not",
			fields.n, &fields, fields.longer, policyLonger, otherLonger)
	})
}

// encodeBoth encodes list with both encoders into ours and theirs.
func encodeBoth(t *testing.T, enc *qpack.Encoder, qenc *quicqpack.Encoder, b *mdelem.Batch, ours, theirs []byte,
	list []quicqpack.Field) ([]byte, []byte) {
	t.Helper()
	q, err := qenc.Encode(list)
	if err != nil {
		t.Fatalf("quic-go/qpack's Encode: %v", err)
	}
	theirs = append(theirs[:0], q...)
	if err := fillBatch(b, list, nil); err != nil {
		t.Fatalf("filling the batch: %v", err)
	}
	var es []byte
	if ours, es = enc.AppendSection(ours[:0], nil, 0, b); len(es) != 0 {
		t.Fatalf("%d encoder-stream bytes without SetPeerSettings", len(es))
	}
	return ours, theirs
}
