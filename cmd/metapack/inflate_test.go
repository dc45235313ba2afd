package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/metapack/metapack/internal/story"
)

// RFC 7541 C.3: three requests without Huffman coding, as a story.
const rfcC3 = `{
 "description": "RFC 7541 C.3",
 "cases": [
  {"seqno": 0, "header_table_size": 4096, "wire": "828684410f7777772e6578616d706c652e636f6d",
   "headers": [{":method": "GET"}, {":scheme": "http"}, {":path": "/"}, {":authority": "www.example.com"}]},
  {"seqno": 1, "wire": "828684be58086e6f2d6361636865",
   "headers": [{":method": "GET"}, {":scheme": "http"}, {":path": "/"}, {":authority": "www.example.com"}, {"cache-control": "no-cache"}]},
  {"seqno": 2, "header_table_size": null, "wire": "828785bf400a637573746f6d2d6b65790c637573746f6d2d76616c7565",
   "headers": [{":method": "GET"}, {":scheme": "https"}, {":path": "/index.html"}, {":authority": "www.example.com"}, {"custom-key": "custom-value"}],
   "dynamic_table": [{"custom-key": "custom-value"}, {"cache-control": "no-cache"}, {":authority": "www.example.com"}],
   "dynamic_table_size": 164}
 ]
}`

// withWire returns rfcC3 with case seqno's wire replaced.
func withWire(t *testing.T, seqno int, wire string) string {
	t.Helper()
	s, err := story.Read(strings.NewReader(rfcC3))
	if err != nil {
		t.Fatal(err)
	}
	if wire == "" {
		s.Cases[seqno].Wire = nil
	} else {
		s.Cases[seqno].Wire = mustHex(t, wire)
	}
	var b bytes.Buffer
	if err := s.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// writeFiles writes name → content files into a new temporary directory
// and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

var summaryRE = regexp.MustCompile(`^checked (\d+) stories, (\d+) cases: (\d+) mismatches, (\d+) errors\n$`)

func sharedDir(t *testing.T) string { return story.Shared(t) }

// TestInflateCorpus checks every encoder directory of hpack-test-case.
func TestInflateCorpus(t *testing.T) {
	sharedDir(t)
	for _, enc := range []string{"nghttp2", "go-hpack", "python-hpack", "node-http2-hpack", "haskell-http2-linear-huffman"} {
		t.Run(enc, func(t *testing.T) {
			dir := story.Shared(t, "hpack-test-case", enc)
			code, stdout, stderr := runCmd(t, "inflate", "--check", dir)
			if code != 0 {
				t.Fatalf("exit code %d, want 0; stderr:\n%s", code, stderr)
			}
			m := summaryRE.FindStringSubmatch(stdout)
			if m == nil {
				t.Fatalf("stdout %q is not the summary line", stdout)
			}
			if m[1] != "32" || m[3] != "0" || m[4] != "0" {
				t.Errorf("summary %q, want 32 stories, 0 mismatches, 0 errors", stdout)
			}
			if stderr != "" {
				t.Errorf("stderr:\n%s", stderr)
			}
		})
	}
}

func TestInflateRFCAppendix(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(story.Shared(t, "rfc7541"), "appendix-*.json"))
	if len(files) == 0 {
		t.Fatal("no appendix-*.json in ../shared/rfc7541")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			code, stdout, stderr := runCmd(t, "inflate", "--check", f)
			if code != 0 || !summaryRE.MatchString(stdout) || !strings.HasPrefix(stdout, "checked 1 stories, ") {
				t.Errorf("exit code %d, stdout %q, stderr:\n%s", code, stdout, stderr)
			}
		})
	}
	// All at once, and the output (with the dynamic tables) equal to input.
	code, stdout, stderr := runCmd(t, append([]string{"inflate"}, files...)...)
	if code != 0 {
		t.Fatalf("exit code %d; stderr:\n%s", code, stderr)
	}
	got := readStream(t, stdout)
	if len(got) != len(files) {
		t.Fatalf("got %d stories on stdout, want %d", len(got), len(files))
	}
	for i, f := range files {
		want, err := story.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want.Name = ""
		if !equalStories(got[i], want) {
			t.Errorf("%s: output differs from input", f)
		}
	}
}

// TestInflateGenerated checks stories made by the test, no corpus needed.
func TestInflateGenerated(t *testing.T) {
	tests := []struct {
		name    string
		content string
		args    []string // before the file; default --check
		code    int
		summary string   // with --check
		stderr  []string // substrings of stderr; empty means none
	}{
		{
			name: "rfc C.3", content: rfcC3, code: 0,
			summary: "checked 1 stories, 3 cases: 0 mismatches, 0 errors\n",
		},
		{
			name: "interspersed flag", content: rfcC3, args: []string{}, code: 0,
			summary: "checked 1 stories, 3 cases: 0 mismatches, 0 errors\n",
		},
		{
			name: "invalid index stops the story", content: withWire(t, 1, "828684c6"), code: 1,
			summary: "checked 1 stories, 2 cases: 0 mismatches, 1 errors\n",
			stderr:  []string{"FILE: seqno 1: offset 3: decoding error: invalid index 70 (the tables hold 62 entries)"},
		},
		{
			name: "truncated", content: withWire(t, 0, "828684410f7777"), code: 1,
			summary: "checked 1 stories, 1 cases: 0 mismatches, 1 errors\n",
			stderr:  []string{"FILE: seqno 0: offset 3: decoding error: header block ends inside a field"},
		},
		{
			name: "mismatch", content: strings.Replace(rfcC3, `"no-cache"}]}`, `"no-store"}]}`, 1), code: 1,
			summary: "checked 1 stories, 3 cases: 1 mismatches, 0 errors\n",
			stderr:  []string{`FILE: seqno 1: header 4 is "cache-control": "no-cache", want "cache-control": "no-store"`},
		},
		{
			name: "dynamic table mismatch", content: strings.Replace(rfcC3, `"dynamic_table_size": 164`, `"dynamic_table_size": 165`, 1), code: 1,
			summary: "checked 1 stories, 3 cases: 1 mismatches, 0 errors\n",
			stderr:  []string{"FILE: seqno 2: dynamic table size is 164, want 165"},
		},
		{
			name: "fewer headers", content: withWire(t, 2, "828785bf"), code: 1,
			summary: "checked 1 stories, 3 cases: 1 mismatches, 0 errors\n",
			stderr:  []string{`FILE: seqno 2: decoded 4 headers, want 5; the first missing one is "custom-key": "custom-value"`},
		},
		{
			// The first case's size is the decoder's: an update above it fails.
			name:    "initial table size",
			content: `{"cases": [{"seqno": 0, "header_table_size": 256, "wire": "3fe11f82", "headers": [{":method": "GET"}]}]}`,
			code:    1,
			summary: "checked 1 stories, 1 cases: 0 mismatches, 1 errors\n",
			stderr:  []string{"FILE: seqno 0: offset 0: decoding error: dynamic table size update above the advertised maximum"},
		},
		{
			// A lower size before a case requires the block to start with
			// an update; absent or null keeps it.
			name: "table size change",
			content: `{"cases": [
				{"seqno": 0, "wire": "82", "headers": [{":method": "GET"}]},
				{"seqno": 1, "header_table_size": 0, "wire": "2082", "headers": [{":method": "GET"}]},
				{"seqno": 2, "header_table_size": null, "wire": "3f0182", "headers": [{":method": "GET"}]}]}`,
			code:    1,
			summary: "checked 1 stories, 3 cases: 0 mismatches, 1 errors\n",
			stderr:  []string{"FILE: seqno 2: offset 0: decoding error: dynamic table size update above the advertised maximum"},
		},
		{
			name: "missing size update",
			content: `{"cases": [
				{"seqno": 0, "wire": "82", "headers": [{":method": "GET"}]},
				{"seqno": 1, "header_table_size": 100, "wire": "82", "headers": [{":method": "GET"}]}]}`,
			code:    1,
			summary: "checked 1 stories, 2 cases: 0 mismatches, 1 errors\n",
			stderr:  []string{"FILE: seqno 1: offset 0: decoding error: header block lacks the size update"},
		},
		{
			name: "empty story", content: `{"description": "none", "cases": []}`, code: 0,
			summary: "checked 1 stories, 0 cases: 0 mismatches, 0 errors\n",
		},
		{
			// 0xff is a valid header byte but not UTF-8: the check reports
			// it, and writing the story fails cleanly.
			name: "binary value checked", content: `{"cases": [{"seqno": 0, "wire": "00016101ff", "headers": [{"a": "b"}]}]}`, code: 1,
			summary: "checked 1 stories, 1 cases: 1 mismatches, 0 errors\n",
			stderr:  []string{`FILE: seqno 0: header 0 is "a": "\xff", want "a": "b"`},
		},
		{
			name: "binary value written", content: `{"cases": [{"seqno": 0, "wire": "00016101ff", "headers": []}]}`,
			args: []string{"inflate"}, code: 1,
			stderr: []string{`metapack: FILE: cannot write the decoded story: story: case 0: header 0 ("a"): value "\xff" is not valid UTF-8, which JSON cannot carry`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"story.json": tt.content})
			file := filepath.Join(dir, "story.json")
			args := tt.args
			switch {
			case args == nil:
				args = []string{"inflate", "--check", file}
			case len(args) == 0:
				args = []string{"inflate", file, "--check"}
			default:
				args = append(slices.Clone(args), file)
			}
			code, stdout, stderr := runCmd(t, args...)
			if code != tt.code {
				t.Errorf("exit code %d, want %d; stderr:\n%s", code, tt.code, stderr)
			}
			if tt.summary != "" && stdout != tt.summary {
				t.Errorf("stdout %q, want %q", stdout, tt.summary)
			}
			if tt.summary == "" && tt.code != 0 && stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			if len(tt.stderr) == 0 && stderr != "" {
				t.Errorf("stderr:\n%s", stderr)
			}
			for _, w := range tt.stderr {
				w = strings.ReplaceAll(w, "FILE:", file+":")
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
		})
	}
}

// TestInflateProblemLimit checks that only the first problems are listed.
func TestInflateProblemLimit(t *testing.T) {
	files := map[string]string{}
	for i := range 13 {
		files[fmt.Sprintf("s%02d.json", i)] = withWire(t, 0, "ff")
	}
	dir := writeFiles(t, files)
	code, stdout, stderr := runCmd(t, "inflate", "--check", dir)
	if code != 1 || stdout != "checked 13 stories, 13 cases: 0 mismatches, 13 errors\n" {
		t.Errorf("exit code %d, stdout %q", code, stdout)
	}
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if len(lines) != maxProblems+1 || lines[maxProblems] != "metapack: ... and 3 more problems" {
		t.Errorf("stderr has %d lines, want %d and a last one for the rest:\n%s", len(lines), maxProblems+1, stderr)
	}
	if !strings.Contains(lines[0], filepath.Join(dir, "s00.json")+": seqno 0: offset 0: decoding error: ") {
		t.Errorf("first line %q", lines[0])
	}
}

func TestInflateBadInput(t *testing.T) {
	tests := []struct {
		name    string
		content string // written to FILE; "" means FILE is not created
		args    []string
		want    string // stderr, FILE replaced by the path
	}{
		{name: "bad JSON", content: `{"cases": [`, want: "metapack: FILE: invalid story JSON: unexpected EOF"},
		{name: "not JSON", content: `wire`, want: "metapack: FILE: invalid story JSON: invalid character 'w' looking for beginning of value"},
		{name: "bad hex", content: strings.Replace(rfcC3, `"828684be`, `"828684bg`, 1), want: `metapack: FILE: case 1: bad hex in "wire": encoding/hex: invalid byte: U+0067 'g'`},
		{name: "odd hex", content: `{"cases": [{"seqno": 0, "wire": "828", "headers": []}]}`, want: `metapack: FILE: case 0: bad hex in "wire": encoding/hex: odd length hex string`},
		{name: "non-hex", content: `{"cases": [{"seqno": 0, "wire": "8z", "headers": []}]}`, want: `metapack: FILE: case 0: bad hex in "wire": encoding/hex: invalid byte: U+007A 'z'`},
		{name: "missing wire", content: withWire(t, 1, ""), want: `metapack: FILE: case 1 (seqno 1): no "wire" to decode (raw-data/ stories have none)`},
		{name: "missing headers", content: `{"cases": [{"seqno": 0, "wire": "82"}]}`, want: `metapack: FILE: case 0: missing "headers" list`},
		{name: "missing cases", content: `{"description": "x"}`, want: `metapack: FILE: missing "cases" list`},
		{name: "huge table size", content: `{"cases": [{"seqno": 0, "header_table_size": 4294967296, "wire": "82", "headers": []}]}`, want: `metapack: FILE: case 0 (seqno 0): "header_table_size" 4294967296 is above 2^32-1`},
		{name: "no such file", want: "metapack: FILE: no such file or directory"},
		{name: "no files", args: []string{"inflate"}, want: "metapack inflate: no FILE_OR_DIR given\nRun 'metapack inflate -h' for usage."},
		{name: "bad flag", args: []string{"inflate", "--chek"}, want: "metapack inflate: flag provided but not defined: -chek\nRun 'metapack inflate -h' for usage."},
		{name: "-o without DIR", args: []string{"inflate", "-o"}, want: "metapack inflate: flag needs an argument: -o\nRun 'metapack inflate -h' for usage."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "story.json")
			if tt.content != "" {
				if err := os.WriteFile(file, []byte(tt.content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			args := tt.args
			if args == nil {
				args = []string{"inflate", "--check", file}
			}
			code, stdout, stderr := runCmd(t, args...)
			if code != 2 {
				t.Errorf("exit code %d, want 2", code)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			if want := strings.ReplaceAll(tt.want, "FILE:", file+":") + "\n"; stderr != want {
				t.Errorf("stderr %q\nwant   %q", stderr, want)
			}
		})
	}
}

func TestInflateBadInputDirs(t *testing.T) {
	good := writeFiles(t, map[string]string{"a.json": rfcC3})
	bad := writeFiles(t, map[string]string{"a.json": rfcC3, "b.json": `[`})
	empty := writeFiles(t, map[string]string{"notes.txt": "x"})
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"bad file in dir", []string{"inflate", bad}, "metapack: " + filepath.Join(bad, "b.json") + ": invalid story JSON: unexpected EOF"},
		{"empty dir", []string{"inflate", empty}, "metapack: " + empty + ": directory holds no *.json files"},
		{"same base name twice", []string{"inflate", "-o", t.TempDir(), good, filepath.Join(bad, "a.json")},
			"would both be written to a.json"},
		{"output over input", []string{"inflate", "-o", good, good}, "metapack: -o " + good + ": would overwrite the input " + filepath.Join(good, "a.json")},
	}
	if shared, ok := story.SharedDir(); ok {
		raw := filepath.Join(shared, "hpack-test-case", "raw-data")
		if _, err := os.Stat(raw); err == nil {
			tests = append(tests, struct {
				name string
				args []string
				want string
			}{"raw-data", []string{"inflate", "--check", raw}, "metapack: " + filepath.Join(raw, "story_00.json") + `: case 0 (seqno 0): no "wire" to decode (raw-data/ stories have none)`})
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCmd(t, tt.args...)
			if code != 2 || stdout != "" {
				t.Errorf("exit code %d, stdout %q; want 2 and nothing", code, stdout)
			}
			if !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("stderr %q, want one line with %q", stderr, tt.want)
			}
		})
	}
	// Nothing may have been written over the input.
	if b, _ := os.ReadFile(filepath.Join(good, "a.json")); string(b) != rfcC3 {
		t.Errorf("input changed")
	}
}

// TestInflateOutDir checks that -o writes one file per story, each reading
// back equal to its input.
func TestInflateOutDir(t *testing.T) {
	in := writeFiles(t, map[string]string{
		"c3.json":    rfcC3,
		"plain.json": `{"description": "d", "cases": [{"seqno": 7, "wire": "8286", "headers": [{":method": "GET"}, {":scheme": "http"}]}]}`,
		"skip.txt":   "not a story",
	})
	dirs := []string{in}
	if shared, ok := story.SharedDir(); ok {
		if d := filepath.Join(shared, "hpack-test-case", "nghttp2"); dirExists(d) {
			dirs = append(dirs, d)
		}
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "new", "out") // created by inflate
			code, stdout, stderr := runCmd(t, "inflate", "-o", out, dir)
			if code != 0 || stdout != "" || stderr != "" {
				t.Fatalf("exit code %d, stdout %q, stderr:\n%s", code, stdout, stderr)
			}
			want, err := story.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			got, err := story.ReadDir(out)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("wrote %d stories, want %d", len(got), len(want))
			}
			for i := range want {
				if got[i].Name != want[i].Name || !equalStories(got[i], want[i]) {
					t.Errorf("%s: output differs from the input", want[i].Name)
				}
			}
			// And --check agrees on the output.
			if code, stdout, _ := runCmd(t, "inflate", out, "--check"); code != 0 || !strings.HasPrefix(stdout, fmt.Sprintf("checked %d stories, ", len(want))) {
				t.Errorf("--check on the output: exit code %d, stdout %q", code, stdout)
			}
		})
	}
}

// TestInflateStdout checks that several stories go to stdout one JSON
// document after another, headers replaced by what was decoded.
func TestInflateStdout(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a.json": strings.Replace(rfcC3, `"no-cache"}]}`, `"WRONG"}]}`, 1),
		"b.json": `{"cases": [{"wire": "8286", "headers": []}]}`,
	})
	code, stdout, stderr := runCmd(t, "inflate", filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json"))
	if code != 0 || stderr != "" {
		t.Fatalf("exit code %d, stderr:\n%s", code, stderr)
	}
	got := readStream(t, stdout)
	if len(got) != 2 {
		t.Fatalf("got %d stories, want 2", len(got))
	}
	c3, _ := story.Read(strings.NewReader(rfcC3))
	if !equalStories(got[0], c3) {
		t.Errorf("first story: headers not replaced by the decoded ones")
	}
	want := []story.Header{{Name: ":method", Value: "GET"}, {Name: ":scheme", Value: "http"}}
	if c := got[1].Cases[0]; !slices.Equal(c.Headers, want) || !bytes.Equal(c.Wire, []byte{0x82, 0x86}) || c.Seqno != 0 {
		t.Errorf("second story case: %+v, want headers %v", c, want)
	}
}

func readStream(t *testing.T, s string) []*story.Story {
	t.Helper()
	var out []*story.Story
	dec := json.NewDecoder(strings.NewReader(s))
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			t.Fatalf("output is not a JSON stream: %v", err)
		}
		st, err := story.Read(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("output story: %v", err)
		}
		out = append(out, st)
	}
	return out
}

// equalStories compares everything that is written (not Name).
func equalStories(a, b *story.Story) bool {
	if a.Description != b.Description || a.Context != b.Context || len(a.Cases) != len(b.Cases) {
		return false
	}
	for i := range a.Cases {
		x, y := a.Cases[i], b.Cases[i]
		if x.Seqno != y.Seqno || !bytes.Equal(x.Wire, y.Wire) || x.HeaderTableSize != y.HeaderTableSize ||
			!slices.Equal(x.Headers, y.Headers) || !slices.Equal(x.DynamicTable, y.DynamicTable) ||
			x.DynamicTableSize != y.DynamicTableSize {
			return false
		}
	}
	return true
}

func dirExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
