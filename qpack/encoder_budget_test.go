package qpack_test

import (
	"fmt"
	"testing"

	"github.com/metapack/metapack/internal/qif"
)

// TestEncoderBlockedBudget encodes, for a peer that allows 20 blocked
// streams and never acknowledges (ack mode 0), a connection where every
// fourth request carries 20 repeated fields and the others one: only 20
// sections can ever refer to the dynamic table, and they should be
// mostly the large ones. An encoder that gives them to the first 20
// sections gives 5 to large ones (this one gives 15). The records must still decode with the
// encoder stream delivered last, so that every section that refers to
// the table is blocked at once.
func TestEncoderBlockedBudget(t *testing.T) {
	const sections, blocked = 400, 20
	big := func(i int) bool { return i%4 == 0 }
	var sets [][]qif.Field
	for i := range sections {
		set := []qif.Field{{Name: ":status", Value: "200"}}
		if big(i) {
			for k := range 20 {
				set = append(set, qif.Field{Name: fmt.Sprintf("x-large-%02d", k), Value: fmt.Sprintf("%030d", k)})
			}
		} else {
			set = append(set, qif.Field{Name: "x-small", Value: "a value of 20 bytes."})
		}
		sets = append(sets, set)
	}
	cfg := mustConfig(t, fmt.Sprintf("4096.%d.0", blocked))
	recs := encodeRecords(t, sets, cfg)
	large, small := 0, 0
	for _, r := range recs {
		if r.StreamID == qif.EncoderStream || len(r.Data) == 0 || r.Data[0] == 0 {
			continue // no Required Insert Count: no dynamic reference
		}
		if big(int(r.StreamID - 1)) {
			large++
		} else {
			small++
		}
	}
	t.Logf("sections referring to the table: %d large, %d small; %d wire bytes", large, small, qif.WireBytes(recs))
	if large+small > blocked {
		t.Errorf("%d sections refer to the table, over the %d the peer allows", large+small, blocked)
	}
	if large < 2*blocked/3 {
		t.Errorf("%d large sections refer to the table, want at least %d", large, 2*blocked/3)
	}
	got, err := qif.Decode(delayEncoderStream(recs, len(recs)), cfg)
	if err != nil {
		t.Fatal(err)
	}
	checkSets(t, got, sets, seq(len(sets)))
}
