package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchNames are the measurements bench makes, in order, with their peers.
var benchNames = []struct{ name, peer string }{
	{"decode", "x/net"},
	{"encode", "x/net"},
	{"huffman-decode", "x/net"},
	{"huffman-encode", "x/net"},
	{"intern", "unique"},
}

// checkBenchJSON checks that out holds one sane result per measurement and
// implementation, ours first.
func checkBenchJSON(t *testing.T, out string) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	var got []result
	for {
		var r result
		err := dec.Decode(&r)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("bad JSON line: %v\n%s", err, out)
		}
		got = append(got, r)
	}
	if len(got) != 2*len(benchNames) {
		t.Fatalf("got %d results, want %d:\n%s", len(got), 2*len(benchNames), out)
	}
	for i, want := range benchNames {
		for j, impl := range []string{"metapack", want.peer} {
			r := got[2*i+j]
			if r.Name != want.name || r.Impl != impl {
				t.Errorf("result %d is %s/%s, want %s/%s", 2*i+j, r.Name, r.Impl, want.name, impl)
			}
			sane := func(v, lo, hi float64) bool { return !math.IsNaN(v) && v >= lo && v < hi }
			if !sane(r.NsOp, 0.1, 1e8) || !sane(r.MBs, 1e-3, 1e6) || !sane(r.AllocsOp, 0, 1e3) {
				t.Errorf("%s/%s: implausible numbers %+v", r.Name, r.Impl, r)
			}
		}
	}
}

func TestBenchBuiltinJSON(t *testing.T) {
	code, stdout, stderr := runCmd(t, "bench", "--time", "1ms", "--json")
	if code != 0 {
		t.Fatalf("exit code %d; stderr:\n%s", code, stderr)
	}
	checkBenchJSON(t, stdout)
	for _, want := range []string{"built-in corpus: 10 stories", "[1/5] decode: metapack vs x/net", "[5/5] intern: metapack vs unique"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("progress on stderr lacks %q:\n%s", want, stderr)
		}
	}
}

func TestBenchTable(t *testing.T) {
	code, stdout, stderr := runCmd(t, "bench", "--time=1ms")
	if code != 0 {
		t.Fatalf("exit code %d; stderr:\n%s", code, stderr)
	}
	table, legend, ok := strings.Cut(strings.TrimSpace(stdout), "\n\nspeedup = ")
	if !ok {
		t.Fatalf("no legend under the table:\n%s", stdout)
	}
	for _, want := range []string{"peer ns/op ÷ metapack ns/op", "MB/s counts different bytes per row", "made anew per\nstory"} {
		if !strings.Contains(legend, want) {
			t.Errorf("legend lacks %q:\n%s", want, legend)
		}
	}
	lines := strings.Split(table, "\n")
	// Header line, blank, column titles, rule, one row per measurement.
	if len(lines) != 4+len(benchNames) {
		t.Fatalf("table has %d lines, want %d:\n%s", len(lines), 4+len(benchNames), stdout)
	}
	for i, want := range benchNames {
		f := strings.Fields(lines[4+i])
		if f[0] != want.name || !strings.HasSuffix(f[len(f)-1], "x") || !strings.Contains(lines[4+i], want.peer) {
			t.Errorf("row %q, want measurement %s against %s with a speedup", lines[4+i], want.name, want.peer)
		}
	}
}

func TestBenchSVG(t *testing.T) {
	svg := filepath.Join(t.TempDir(), "bench.svg")
	code, _, stderr := runCmd(t, "bench", "--time", "1ms", "--svg", svg)
	if code != 0 {
		t.Fatalf("exit code %d; stderr:\n%s", code, stderr)
	}
	data, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		XMLName xml.Name `xml:"svg"`
		Rects   []struct {
			Fill string `xml:"fill,attr"`
		} `xml:"rect"`
		Lines []struct{} `xml:"line"`
		Texts []string   `xml:"text"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("not valid XML: %v", err)
	}
	if doc.XMLName.Space != "http://www.w3.org/2000/svg" {
		t.Errorf("root element %v, want an SVG element", doc.XMLName)
	}
	if len(doc.Rects) != 1+len(benchNames) { // the background and the bars
		t.Errorf("%d rects, want %d", len(doc.Rects), 1+len(benchNames))
	}
	texts := strings.Join(doc.Texts, "\n")
	for _, want := range []string{"1x", "1x: same speed", "speedup = peer ns/op ÷ metapack ns/op", "measurement (vs peer)", "huffman-decode", "vs unique"} {
		if !strings.Contains(texts, want) {
			t.Errorf("chart lacks the text %q", want)
		}
	}
}

// TestBenchCorpus runs on story directories: nghttp2's stories are decoded
// from their wire, raw-data's from our encoder's output.
func TestBenchCorpus(t *testing.T) {
	shared := sharedDir(t)
	for _, dir := range []string{"nghttp2", "raw-data"} {
		t.Run(dir, func(t *testing.T) {
			path := filepath.Join(shared, "hpack-test-case", dir)
			code, stdout, stderr := runCmd(t, "bench", "--corpus", path, "--time", "1ms", "--json")
			if code != 0 {
				t.Fatalf("exit code %d; stderr:\n%s", code, stderr)
			}
			checkBenchJSON(t, stdout)
			wantNote := dir == "raw-data"
			if got := strings.Contains(stderr, "32 stories without wire decoded from our encoder's output"); got != wantNote {
				t.Errorf("corpus note present = %v, want %v:\n%s", got, wantNote, stderr)
			}
		})
	}
}

func TestBenchErrors(t *testing.T) {
	dir := t.TempDir()
	bad := writeFiles(t, map[string]string{"story_00.json": `{"cases": [{"seqno": 0, "wire": "ff", "headers": [{"a": "b"}]}]}`})
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"operand", []string{"bench", "nghttp2"}, 2, `metapack bench: unexpected argument "nghttp2"`},
		{"bad time", []string{"bench", "--time", "soon"}, 2, "metapack bench: invalid value"},
		{"zero time", []string{"bench", "--time", "0s"}, 2, "want a positive duration"},
		{"missing corpus", []string{"bench", "--corpus", filepath.Join(dir, "nope")}, 2, "metapack: --corpus: "},
		{"empty corpus", []string{"bench", "--corpus", dir}, 2, "holds no *.json files"},
		{"undecodable corpus", []string{"bench", "--corpus", bad, "--time", "1ms"}, 1, "decoding error"},
		{"unwritable svg", []string{"bench", "--time", "1ms", "--svg", filepath.Join(dir, "no", "such", "dir.svg")}, 1, "metapack: --svg: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCmd(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit code %d, want %d; stderr:\n%s", code, tt.code, stderr)
			}
			if !strings.Contains(stderr, tt.want) {
				t.Errorf("stderr lacks %q:\n%s", tt.want, stderr)
			}
			if last := lastLine(stderr); !strings.HasPrefix(last, "metapack") && !strings.HasPrefix(last, "Run 'metapack") {
				t.Errorf("last stderr line %q does not come from metapack", last)
			}
		})
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// TestSVGScale checks the chart's axis on speedups far from 1x.
func TestSVGScale(t *testing.T) {
	rows := []benchRow{
		{measurement{name: "slow"}, []result{{Impl: "metapack", NsOp: 100}, {Impl: "x/net", NsOp: 30}}},
		{measurement{name: "fast"}, []result{{Impl: "metapack", NsOp: 10}, {Impl: "x/net", NsOp: 150}}},
	}
	var b bytes.Buffer
	writeSVG(&b, "test", rows)
	if err := xml.Unmarshal(b.Bytes(), new(struct{})); err != nil {
		t.Fatalf("not valid XML: %v", err)
	}
	for _, tick := range []string{">0.25x<", ">1x<", ">16x<", ">0.30x<", ">15.00x<"} {
		if !strings.Contains(b.String(), tick) {
			t.Errorf("chart lacks %q", tick)
		}
	}
}
