//go:build nghttp3

package nghttp3

import (
	"strconv"
	"testing"

	"github.com/metapack/metapack/interop/nghttp3/ngqpack"
)

// probedTable is nghttp3's decoder as a tableSide: its entries read by
// probes of the encoder stream so far.
type probedTable struct {
	dec      ngDecoder
	c        *conn
	capacity uint64
}

func (p probedTable) name() string        { return "nghttp3 decoder (probed)" }
func (p probedTable) insertCount() uint64 { return p.dec.insertCount() }
func (p probedTable) entry(abs uint64) (string, string, bool) {
	icnt := p.dec.insertCount()
	if abs >= icnt || p.capacity < 32 || abs+p.capacity/32 < icnt {
		return "", "", false
	}
	e, err := ngqpack.Entries(p.c.log, p.capacity, abs, abs+1)
	if err != nil {
		return "", "", false
	}
	return e[0].Name, e[0].Value, true
}

// TestHarness runs the harness with nghttp3 on both sides, so that a
// failure of the differential tests is not the harness's: every scenario
// must pass, and the scenarios must block and cancel sections.
func TestHarness(t *testing.T) {
	for _, capacity := range []uint64{0, 256, 4096} {
		for si, sc := range scenarios {
			t.Run(sc.name+",cap="+strconv.FormatUint(capacity, 10), func(t *testing.T) {
				dec := newNgDecoder(t, capacity, 16)
				ours := &probedTable{dec: dec, capacity: capacity}
				seed := uint64(si) + capacity
				c := newConn(t, newNgEncoder(t, capacity, 16), dec, ours, capacity, 16, sc, seed)
				ours.c = c
				c.send(genLists(seed, sectionsPerRun))
				if capacity > 0 && sc.encDelay > 0 && c.blocked == 0 {
					t.Errorf("no section blocked")
				}
				if sc.cancelPct > 0 && c.cancelled == 0 {
					t.Errorf("no stream cancelled")
				}
				t.Logf("%d inserts, %d sections blocked, %d streams cancelled", dec.insertCount(), c.blocked, c.cancelled)
			})
		}
	}
}
