//go:build nghttp3

package nghttp3

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metapack/metapack/interop/nghttp3/ngqpack"
)

// The offline-interop parameter sets: the decoder's table capacity and
// blocked streams, and the ack mode (1: the decoder stream goes back to
// the encoder after every section; 0: never).
var (
	qifCapacities = []uint64{0, 256, 512, 4096}
	qifBlockeds   = []uint64{0, 100}
	qifAcks       = []int{0, 1}
)

// TestQIF encodes every QIF of ../shared/qifs/qifs with qpack.Encoder
// under each of the 16 parameter sets, header set i as stream i+1's
// section after the encoder-stream bytes it needs, and decodes it with
// nghttp3's decoder, which must give back the header set exactly and hold
// the encoder's table.
func TestQIF(t *testing.T) {
	dir := ngqpack.Shared(t, "qifs", "qifs")
	files, err := filepath.Glob(filepath.Join(dir, "*.qif"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, strings.TrimSuffix(filepath.Base(f), ".qif"))
	}
	for _, need := range []string{"fb-req", "fb-resp", "netbsd"} {
		if !strings.Contains(" "+strings.Join(names, " ")+" ", " "+need+" ") {
			t.Fatalf("%s: no %s.qif among %v", dir, need, names)
		}
	}
	for _, f := range files {
		sets, err := ngqpack.ReadQIF(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, capacity := range qifCapacities {
			for _, blocked := range qifBlockeds {
				for _, ack := range qifAcks {
					name := fmt.Sprintf("%s.out.%d.%d.%d", strings.TrimSuffix(filepath.Base(f), ".qif"), capacity, blocked, ack)
					t.Run(name, func(t *testing.T) { qifRun(t, sets, capacity, blocked, ack) })
				}
			}
		}
	}
}

func qifRun(t *testing.T, sets [][]Field, capacity, blocked uint64, ack int) {
	enc := newOurEncoder(capacity, blocked)
	dec := newNgDecoder(t, capacity, blocked)
	c := newConn(t, enc, dec, enc, capacity, blocked, scenario{name: fmt.Sprintf("qif,ack=%d", ack)}, 0)
	var wire int
	for i, set := range sets {
		c.step = i
		id := uint64(i + 1)
		sec, es, err := enc.encode(id, set)
		if err != nil {
			t.Fatalf("%s: %v", c.where(), err)
		}
		wire += len(sec) + len(es)
		c.log = append(c.log, es...)
		c.checkEvictions()
		c.deliverEnc(len(c.log))
		got, isBlocked, err := dec.decode(id, sec)
		if err != nil || isBlocked {
			t.Fatalf("%s: nghttp3's decoder on stream %d's section %s (encoder stream %s): blocked %v, %v", c.where(), id, hexTrunc(sec), hexTrunc(es), isBlocked, err)
		}
		if err := delivered(got, set, enc.neverIndexed); err != nil {
			t.Fatalf("%s: stream %d: %v", c.where(), id, err)
		}
		ds := dec.decoderStream()
		if ack == 1 {
			if err := enc.readDecoderStream(ds); err != nil {
				t.Fatalf("%s: qpack.Encoder rejects nghttp3's decoder stream %x: %v", c.where(), ds, err)
			}
			c.acked = dec.insertCount()
		}
		if i%16 == 0 || i == len(sets)-1 {
			c.checkTables()
		}
	}
	t.Logf("%d sets, %d bytes (sections and encoder stream), %d inserts", len(sets), wire, enc.insertCount())
}
