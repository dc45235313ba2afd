package qif

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// encodeTestSets are header sets that repeat, so that a dynamic table pays.
func encodeTestSets() [][]Field {
	var sets [][]Field
	for i := range 20 {
		sets = append(sets, []Field{
			{Name: ":method", Value: "GET"},
			{Name: ":path", Value: fmt.Sprintf("/item/%d", i%4)},
			{Name: ":authority", Value: "www.example.com"},
			{Name: "user-agent", Value: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36"},
			{Name: "x-empty", Value: ""},
			{Name: "x-bytes", Value: "\x00\xff\t\r"},
		})
	}
	return sets
}

// TestEncode encodes header sets at several settings and checks the
// output's shape (sections on streams 1 to N in order, no empty
// encoder-stream record, each encoder-stream record before the sections
// that need it: a decoder with no blocked stream decodes it) and that it
// decodes back exactly.
func TestEncode(t *testing.T) {
	sets := encodeTestSets()
	for _, cfg := range []Config{{}, {0, 0, true}, {4096, 100, true}, {4096, 100, false}, {4096, 0, true}, {4096, 0, false}, {256, 100, true}, {64, 1, false}, {1 << 20, 100, true}} {
		t.Run(cfg.String(), func(t *testing.T) {
			out, err := Encode(sets, cfg)
			if err != nil {
				t.Fatal(err)
			}
			recs, err := ParseRecords(out)
			if err != nil {
				t.Fatal(err)
			}
			var ids []uint64
			for i, r := range recs {
				switch {
				case r.StreamID != EncoderStream:
					ids = append(ids, r.StreamID)
				case len(r.Data) == 0:
					t.Errorf("record %d: an empty encoder-stream record", i+1)
				case cfg.Capacity == 0:
					t.Errorf("record %d: encoder-stream bytes %x at capacity 0", i+1, r.Data)
				}
			}
			want := make([]uint64, len(sets))
			for i := range want {
				want[i] = uint64(i + 1)
			}
			if !slices.Equal(ids, want) {
				t.Errorf("sections on streams %v, want %v", ids, want)
			}
			got, err := Decode(recs, Config{Capacity: cfg.Capacity})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(sets, InOrder(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestEncodeAcks checks that ack mode 1 gives the decoder's
// acknowledgements to the encoder: without them, and with no blocked
// stream allowed, it cannot refer to its inserts, and the output is larger.
func TestEncodeAcks(t *testing.T) {
	sets := encodeTestSets()
	wire := map[bool]int{}
	for _, ack := range []bool{false, true} {
		out, err := Encode(sets, Config{Capacity: 4096, Blocked: 0, Ack: ack})
		if err != nil {
			t.Fatal(err)
		}
		recs, err := ParseRecords(out)
		if err != nil {
			t.Fatal(err)
		}
		wire[ack] = WireBytes(recs)
	}
	if wire[true] >= wire[false] {
		t.Errorf("4096.0.1: %d wire bytes, not fewer than 4096.0.0's %d", wire[true], wire[false])
	}
}

func TestEncodeRefuses(t *testing.T) {
	_, err := Encode(nil, Config{Capacity: 1 << 32})
	if err == nil || !strings.Contains(err.Error(), "capacity 4294967296 is above 2^32-1") {
		t.Errorf("capacity 2^32: error %v", err)
	}
}
