package quicgo

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/metapack/metapack/interop/quicgo/quicqpack"
)

// qifNames are the QIFs of the corpus that the tests and benchmarks use.
var qifNames = []string{"fb-req", "fb-resp", "netbsd"}

const skipCorpus = "skipping: ../shared/qifs (the QPACK offline-interop corpus) is not beside the checkout; " +
	"once it is there, run go test -count=1, as Go's test cache does not notice files outside the module"

// corpusDir returns ../shared/qifs beside the checkout, the directory above
// the one whose go.mod is the metapack module's, or skips tb.
func corpusDir(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil &&
			bytes.HasPrefix(b, []byte("module github.com/metapack/metapack\n")) {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("no go.mod of module github.com/metapack/metapack above the working directory")
		}
		dir = parent
	}
	qifs := filepath.Join(filepath.Dir(dir), "shared", "qifs")
	if fi, err := os.Stat(filepath.Join(qifs, "qifs")); err != nil || !fi.IsDir() {
		tb.Skip(skipCorpus)
	}
	return qifs
}

// readQIF reads a QIF file: one "name<TAB>value" line per field, header
// sets separated by blank lines, lines starting with '#' ignored.
func readQIF(path string) ([][]quicqpack.Field, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var sets [][]quicqpack.Field
	var cur []quicqpack.Field
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, len(b)+1)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case line == "":
			if cur != nil {
				sets, cur = append(sets, cur), nil
			}
		case line[0] == '#':
		default:
			name, value, ok := bytes.Cut([]byte(line), []byte{'\t'})
			if !ok {
				return nil, fmt.Errorf("%s:%d: no tab", path, n)
			}
			cur = append(cur, quicqpack.Field{Name: string(name), Value: string(value)})
		}
	}
	if cur != nil {
		sets = append(sets, cur)
	}
	if len(sets) == 0 {
		return nil, fmt.Errorf("%s: no header sets", path)
	}
	return sets, sc.Err()
}

// record is one record of an offline-interop output file: stream 0 is the
// encoder stream, any other stream one field section.
type record struct {
	stream uint64
	data   []byte
}

// readRecords reads an offline-interop output file: records of a
// big-endian u64 stream ID, a big-endian u32 length and that many bytes.
func readRecords(path string) ([]record, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var recs []record
	for len(b) > 0 {
		if len(b) < 12 {
			return nil, fmt.Errorf("%s: a truncated record header", path)
		}
		sid, n := binary.BigEndian.Uint64(b), binary.BigEndian.Uint32(b[8:])
		if uint64(len(b)-12) < uint64(n) {
			return nil, fmt.Errorf("%s: stream %d's record runs past the end", path, sid)
		}
		recs = append(recs, record{stream: sid, data: b[12 : 12+n : 12+n]})
		b = b[12+n:]
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
