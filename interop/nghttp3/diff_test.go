//go:build nghttp3

package nghttp3

import (
	"fmt"
	"testing"
)

// The parameters every differential test runs under: the decoder's
// SETTINGS_QPACK_MAX_TABLE_CAPACITY and SETTINGS_QPACK_BLOCKED_STREAMS,
// which the encoder receives.
var (
	capacities = []uint64{0, 256, 4096}
	blockeds   = []uint64{0, 16, 100}
)

// scenarios are the ways the streams misbehave, one concern each, then
// all together.
var scenarios = []scenario{
	{name: "plain"},
	{name: "fragmented", fragment: true},
	{name: "blocked", encDelay: 3},
	{name: "blocked,fragmented", encDelay: 2, fragment: true},
	{name: "acks-delayed", ackBatch: 5},
	{name: "acks-delayed,blocked", ackBatch: 4, encDelay: 1},
	{name: "cancelled", encDelay: 2, cancelPct: 30},
	{name: "all", encDelay: 2, ackBatch: 3, fragment: true, cancelPct: 20},
}

// sectionsPerRun is the number of sections each run sends.
const sectionsPerRun = 60

// forEach runs f for every capacity, blocked-streams setting and scenario,
// each with its own deterministic seed.
func forEach(t *testing.T, f func(t *testing.T, capacity, blocked uint64, sc scenario, seed uint64)) {
	for _, capacity := range capacities {
		for _, blocked := range blockeds {
			for si, sc := range scenarios {
				seed := capacity*1000 + blocked*10 + uint64(si)
				t.Run(fmt.Sprintf("cap=%d,blocked=%d,%s", capacity, blocked, sc.name), func(t *testing.T) {
					f(t, capacity, blocked, sc, seed)
				})
			}
		}
	}
}

// TestNghttp3ToOurs sends random lists from nghttp3's encoder to
// qpack.Decoder, its decoder stream fed back, under every scenario.
func TestNghttp3ToOurs(t *testing.T) {
	forEach(t, func(t *testing.T, capacity, blocked uint64, sc scenario, seed uint64) {
		dec := newOurDecoder(capacity, blocked)
		c := run(t, newNgEncoder(t, capacity, blocked), dec, dec, capacity, blocked, sc, seed, genLists(seed, sectionsPerRun))
		t.Logf("%d inserts, %d sections blocked, %d streams cancelled", dec.insertCount(), c.blocked, c.cancelled)
	})
}
