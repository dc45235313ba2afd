package qpack

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/metapack/metapack/mdelem"
)

// readQIF reads a QIF's header sets (the offline-interop input format).
func readQIF(t testing.TB, path string) [][][2]string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("no QIF corpus: %v", err)
	}
	var sets [][][2]string
	var cur [][2]string
	for _, l := range bytes.Split(data, []byte("\n")) {
		if len(l) > 0 && l[0] == '#' {
			continue
		}
		if len(l) == 0 {
			if cur != nil {
				sets = append(sets, cur)
				cur = nil
			}
			continue
		}
		n, v, _ := bytes.Cut(l, []byte("\t"))
		cur = append(cur, [2]string{string(n), string(v)})
	}
	if cur != nil {
		sets = append(sets, cur)
	}
	return sets
}

// roundTrip encodes sets under cfg with our encoder, decodes with our
// decoder (acknowledging when ack), checks, and returns the wire bytes.
func roundTrip(t testing.TB, sets [][][2]string, capacity, blocked uint64, ack bool) int {
	enc := NewEncoder()
	enc.SetPeerSettings(capacity, blocked)
	dec := NewDecoder(capacity, blocked)
	in := mdelem.NewBatch(64, 4096)
	out := mdelem.NewBatch(64, 4096)
	var sec, es, ds []byte
	wire, esTotal := 0, 0
	for i, set := range sets {
		in.Reset()
		for _, f := range set {
			in.Append(mdelem.From(mdelem.BorrowString(f[0]), mdelem.BorrowString(f[1])))
		}
		sec, es = enc.AppendSection(sec[:0], es[:0], uint64(i+1), in)
		wire += len(sec) + len(es)
		esTotal += len(es)
		if err := dec.WriteEncoderStream(es); err != nil {
			t.Fatalf("set %d: encoder stream: %v", i, err)
		}
		out.Reset()
		if err := dec.Decode(out, uint64(i+1), sec); err != nil {
			t.Fatalf("set %d: %v", i, err)
		}
		if out.Len() != len(set) {
			t.Fatalf("set %d: %d fields, want %d", i, out.Len(), len(set))
		}
		for j, f := range set {
			g := out.At(j)
			if g.Name.String() != f[0] || g.Value.String() != f[1] {
				t.Fatalf("set %d field %d: %q: %q, want %q: %q", i, j, g.Name.String(), g.Value.String(), f[0], f[1])
			}
		}
		ds = dec.AppendDecoderStream(ds[:0])
		if ack {
			if err := enc.WriteDecoderStream(ds); err != nil {
				t.Fatalf("set %d: decoder stream: %v", i, err)
			}
		}
	}
	if testing.Verbose() {
		fmt.Printf("  %d.%d.%v: es %d sec %d\n", capacity, blocked, ack, esTotal, wire-esTotal)
	}
	return wire
}

func TestRoundTripQIF(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "qifs", "qifs")
	for _, cfg := range []struct {
		capacity, blocked uint64
		ack               bool
	}{{4096, 100, true}, {4096, 0, true}, {4096, 100, false}, {256, 100, true}, {0, 0, false}} {
		total, raw := 0, 0
		for _, q := range []string{"fb-req", "fb-resp", "netbsd"} {
			sets := readQIF(t, filepath.Join(dir, q+".qif"))
			for _, s := range sets {
				for _, f := range s {
					raw += len(f[0]) + len(f[1])
				}
			}
			total += roundTrip(t, sets, cfg.capacity, cfg.blocked, cfg.ack)
		}
		t.Logf("%d.%d.%v: %d bytes, %.1f%% of %d", cfg.capacity, cfg.blocked, cfg.ack, total, 100*float64(total)/float64(raw), raw)
	}
	_ = fmt.Sprint
}
