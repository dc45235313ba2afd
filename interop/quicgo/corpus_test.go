package quicgo

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/metapack/metapack/internal/qif"
	"github.com/metapack/metapack/interop/quicgo/quicqpack"
)

// qifNames are the QIFs of the corpus that the tests and benchmarks use.
var qifNames = []string{"fb-req", "fb-resp", "netbsd"}

// corpusDir returns the QPACK offline-interop corpus's folder
// (../shared/qifs beside the checkout, or $QIFS), or skips tb with the
// repository's one skip message.
func corpusDir(tb testing.TB) string {
	tb.Helper()
	return qif.Path(tb)
}

// readQIF reads a QIF file with internal/qif, as quic-go/qpack's fields.
func readQIF(path string) ([][]quicqpack.Field, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	sets, err := qif.Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out := make([][]quicqpack.Field, len(sets))
	for i, set := range sets {
		for _, f := range set {
			out[i] = append(out[i], quicqpack.Field{Name: f.Name, Value: f.Value})
		}
	}
	return out, nil
}

// record is one record of an offline-interop output file: stream 0 is the
// encoder stream, any other stream one field section.
type record struct {
	stream uint64
	data   []byte
}

// readRecords reads an offline-interop output file with internal/qif.
func readRecords(path string) ([]record, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	rs, err := qif.ParseRecords(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	recs := make([]record, len(rs))
	for i, r := range rs {
		recs[i] = record{stream: r.StreamID, data: r.Data}
	}
	return recs, nil
}

// workload is one QIF with ls-qpack's static-only encoding of it.
type workload struct {
	name   string
	sets   [][]quicqpack.Field
	fields int // in all sets
	size   int // names' and values' bytes in all sets
	recs   []record
	wire   int // record payload bytes
}

// loadWorkloads reads the QIFs of qifNames and ls-qpack's .out.0.0.0 files
// of them, or skips tb when the corpus is absent.
func loadWorkloads(tb testing.TB) []*workload {
	tb.Helper()
	dir := corpusDir(tb)
	var ws []*workload
	for _, name := range qifNames {
		w := &workload{name: name}
		var err error
		if w.sets, err = readQIF(filepath.Join(dir, "qifs", name+".qif")); err != nil {
			tb.Fatal(err)
		}
		for _, s := range w.sets {
			w.fields += len(s)
			for _, f := range s {
				w.size += len(f.Name) + len(f.Value)
			}
		}
		if w.recs, err = readRecords(filepath.Join(dir, "encoded", "qpack-05", "ls-qpack", name+".out.0.0.0")); err != nil {
			tb.Fatal(err)
		}
		for _, r := range w.recs {
			w.wire += len(r.data)
		}
		ws = append(ws, w)
	}
	return ws
}
