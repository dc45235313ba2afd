package qpack_test

import (
	"fmt"
	"testing"

	"github.com/metapack/metapack/internal/qif"
)

// TestEncoderTableDrift encodes a connection whose requests change their
// authority, user agent, cookies and client header every 100 requests,
// and checks that every phase after the first costs about what the
// cheapest one does: a table full of the entries an earlier phase
// referred to must not go on refusing inserts. (It did once: 4096.0.1's
// last phase cost 4.1 times the cheapest, every third phase of 1024.100.1
// 3.3 times, every other phase of 256.100.1 1.45 times.) Without acknowledgments (ack mode 0)
// nothing can be evicted, so that mode is not checked.
func TestEncoderTableDrift(t *testing.T) {
	const phases, per = 10, 100
	var sets [][]qif.Field
	for k := range phases {
		for i := range per {
			sets = append(sets, []qif.Field{
				{Name: ":method", Value: "GET"},
				{Name: ":scheme", Value: "https"},
				{Name: ":authority", Value: fmt.Sprintf("host-%d.example.com", k)},
				{Name: ":path", Value: fmt.Sprintf("/phase-%d/item-%d", k, i)},
				{Name: "user-agent", Value: fmt.Sprintf("Mozilla/5.0 (phase %d) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/%d.0 Safari/537.36", k, 100+k)},
				{Name: "cookie", Value: fmt.Sprintf("session=%040d", k*7919)},
				{Name: "cookie", Value: fmt.Sprintf("prefs=%040d", k*104729)},
				{Name: "x-client", Value: fmt.Sprintf("client-%d-%030d", k, k)},
				{Name: "x-request-id", Value: fmt.Sprintf("%032x", k*1000+i)},
			})
		}
	}
	for _, c := range []string{"4096.100.1", "4096.0.1", "256.100.1", "1024.100.1"} {
		t.Run("cfg="+c, func(t *testing.T) {
			recs := encodeRecords(t, sets, mustConfig(t, c))
			// Each phase's sections, and the encoder-stream bytes written
			// with them (before each section, in this format).
			cost := make([]int, phases)
			phase := 0
			for _, r := range recs {
				if r.StreamID != 0 {
					phase = int(r.StreamID-1) / per
				}
				cost[phase] += len(r.Data)
			}
			cheapest := cost[1]
			for _, n := range cost[1:] {
				cheapest = min(cheapest, n)
			}
			for k, n := range cost[1:] {
				if float64(n) > 1.2*float64(cheapest) {
					t.Errorf("phase %d: %d bytes, the cheapest after the first %d (all: %v)", k+2, n, cheapest, cost)
				}
			}
		})
	}
}
