package story

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	xhpack "golang.org/x/net/http2/hpack"
)

func sampleStory() *Story {
	return &Story{
		Description: "constructed <story> & friends",
		Context:     "request",
		Cases: []Case{
			{
				Seqno:            0,
				Wire:             []byte{0x82, 0x86, 0x84, 0xAB, 0xFF},
				Headers:          []Header{{":method", "GET"}, {":scheme", "http"}, {":path", "/"}, {"cookie", "a=1"}, {"cookie", "b=2"}},
				HeaderTableSize:  4096,
				DynamicTable:     []Header{{"cookie", "b=2"}, {"cookie", "a=1"}},
				DynamicTableSize: 78,
			},
			{
				Seqno:            1,
				Wire:             []byte{}, // an empty header block
				Headers:          []Header{},
				HeaderTableSize:  -1,
				DynamicTable:     []Header{}, // everything evicted: present but empty
				DynamicTableSize: 0,
			},
			{
				Seqno:            2,
				Headers:          []Header{{"x-unicode", "héllo → wörld"}, {"x-quote", `a "b" \c <d>`}, {"", ""}},
				HeaderTableSize:  0,
				DynamicTableSize: -1,
			},
		},
	}
}

func TestRoundTrip(t *testing.T) {
	in := sampleStory()
	var buf bytes.Buffer
	if err := in.Write(&buf); err != nil {
		t.Fatal(err)
	}
	out, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("Read of Write's output: %v\n%s", err, buf.Bytes())
	}
	if diff := cmp.Diff(in, out); diff != "" {
		t.Errorf("round trip mismatch (-wrote +read):\n%s", diff)
	}

	// Writing again gives the same bytes.
	var buf2 bytes.Buffer
	if err := out.Write(&buf2); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), buf2.Bytes()) {
		t.Errorf("second Write differs:\n%s\n---\n%s", buf.Bytes(), buf2.Bytes())
	}
}

func TestWriteFormat(t *testing.T) {
	var buf bytes.Buffer
	if err := sampleStory().Write(&buf); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, want := range []string{
		`"wire": "828684abff"`, // lowercase hex
		`"wire": ""`,
		`"header_table_size": 4096`,
		`"header_table_size": 0`,
		`"dynamic_table": []`,
		`"dynamic_table_size": 0`,
		`"description": "constructed <story> & friends"`, // no HTML escaping
		"\n \"cases\": [",                                // indented
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %s:\n%s", want, text)
		}
	}
	// Case 2 has no wire, no dynamic table, and case 1 no header_table_size.
	if n := strings.Count(text, `"wire"`); n != 2 {
		t.Errorf("%d wire fields, want 2", n)
	}
	if n := strings.Count(text, `"header_table_size"`); n != 2 {
		t.Errorf("%d header_table_size fields, want 2", n)
	}
	if n := strings.Count(text, `"dynamic_table"`); n != 2 {
		t.Errorf("%d dynamic_table fields, want 2", n)
	}
	if n := strings.Count(text, `"dynamic_table_size"`); n != 2 {
		t.Errorf("%d dynamic_table_size fields, want 2", n)
	}
}

func TestWriteRejectsInvalidUTF8(t *testing.T) {
	s := &Story{Cases: []Case{{Headers: []Header{{"x-bin", "\xff\xfe"}}, HeaderTableSize: -1, DynamicTableSize: -1}}}
	err := s.Write(&bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "UTF-8") || !strings.Contains(err.Error(), "case 0") {
		t.Errorf("Write = %v, want an error about UTF-8 in case 0", err)
	}
}

func TestReadDefaults(t *testing.T) {
	// raw-data style: no description, no seqno, no wire; null table size.
	in := `{"context":"response","cases":[{"headers":[{":status":"200"}]},{"headers":[],"header_table_size":null,"wire":null}]}`
	s, err := Read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := &Story{
		Context: "response",
		Cases: []Case{
			{Seqno: 0, Headers: []Header{{":status", "200"}}, HeaderTableSize: -1, DynamicTableSize: -1},
			{Seqno: 1, Headers: []Header{}, HeaderTableSize: -1, DynamicTableSize: -1},
		},
	}
	if diff := cmp.Diff(want, s); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestReadMalformed(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string // substrings of the error
	}{
		{"empty", ``, []string{"empty input"}},
		{"not json", `{"cases": [`, []string{"invalid story JSON"}},
		{"top-level list", `[]`, []string{"invalid story JSON"}},
		{"trailing data", `{"cases":[]} {}`, []string{"after the story"}},
		{"no cases", `{"description":"x"}`, []string{`missing "cases"`}},
		{"cases not list", `{"cases":{}}`, []string{"invalid story JSON"}},
		{"null case", `{"cases":[null]}`, []string{"case 0", "null"}},
		{"case not object", `{"cases":[3]}`, []string{"case 0", "invalid case JSON"}},
		{"bad hex char", `{"cases":[{"wire":"82zz","headers":[]}]}`, []string{"case 0", "bad hex", "invalid byte"}},
		{"odd hex", `{"cases":[{"headers":[]},{"wire":"828","headers":[]}]}`, []string{"case 1", "bad hex", "odd length"}},
		{"wire not string", `{"cases":[{"wire":82,"headers":[]}]}`, []string{"case 0", "wire"}},
		{"seqno not int", `{"cases":[{"seqno":"0","headers":[]}]}`, []string{"case 0", "seqno"}},
		{"missing headers", `{"cases":[{"seqno":0,"wire":"82"}]}`, []string{"case 0", `missing "headers"`}},
		{"null headers", `{"cases":[{"headers":null}]}`, []string{"case 0", `missing "headers"`}},
		{"headers not list", `{"cases":[{"headers":{":method":"GET"}}]}`, []string{"case 0", `"headers"`, "got object"}},
		{"header with 2 keys", `{"cases":[{"headers":[{"a":"1"},{"b":"2","c":"3"}]}]}`, []string{"case 0", `"headers"`, "element 1", "2 keys", "want exactly 1"}},
		{"header with duplicate key", `{"cases":[{"headers":[{"a":"1","a":"2"}]}]}`, []string{"element 0", "2 keys"}},
		{"empty header object", `{"cases":[{"headers":[{}]}]}`, []string{"element 0", "0 keys"}},
		{"header not object", `{"cases":[{"headers":["a: b"]}]}`, []string{"element 0", `got string "a: b"`}},
		{"header value number", `{"cases":[{"headers":[{"content-length":12}]}]}`, []string{"element 0", `"content-length"`, "number 12", "want a string"}},
		{"header value null", `{"cases":[{"headers":[{"a":null}]}]}`, []string{"element 0", "null", "want a string"}},
		{"header value list", `{"cases":[{"headers":[{"a":["b"]}]}]}`, []string{"element 0", "list", "want a string"}},
		{"negative table size", `{"cases":[{"headers":[],"header_table_size":-1}]}`, []string{"case 0", "negative", "header_table_size"}},
		{"negative dynamic size", `{"cases":[{"headers":[],"dynamic_table_size":-5}]}`, []string{"case 0", "negative", "dynamic_table_size"}},
		{"bad dynamic table", `{"cases":[{"headers":[],"dynamic_table":[{"a":"1","b":"2"}]}]}`, []string{"case 0", `"dynamic_table"`, "2 keys"}},
		{"description not string", `{"description":1,"cases":[]}`, []string{"invalid story JSON", "description"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Read(strings.NewReader(tt.in))
			if err == nil {
				t.Fatalf("Read(%s) = %+v, want an error", tt.in, s)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestReadFileErrorNamesFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "story_07.json")
	if err := os.WriteFile(path, []byte(`{"cases":[{"headers":[]},{"headers":[],"wire":"0g"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(path)
	if err == nil {
		t.Fatal("ReadFile succeeded on a bad file")
	}
	for _, w := range []string{path, "case 1", "bad hex"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q", err, w)
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "absent.json")); err == nil || !strings.Contains(err.Error(), "absent.json") {
		t.Errorf("ReadFile of a missing file = %v", err)
	}
}

func TestReadDirAndWriteFile(t *testing.T) {
	dir := t.TempDir()
	s := sampleStory()
	for _, name := range []string{"b.json", "a.json", "c.json"} {
		if err := s.WriteFile(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("not a story"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	stories, err := ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, st := range stories {
		names = append(names, st.Name)
		if diff := cmp.Diff(s.Cases, st.Cases); diff != "" {
			t.Errorf("%s: cases differ (-want +got):\n%s", st.Name, diff)
		}
	}
	if diff := cmp.Diff([]string{"a.json", "b.json", "c.json"}, names); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}

	if err := os.WriteFile(filepath.Join(dir, "d.json"), []byte(`{"cases":[{"headers":[{}]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadDir(dir); err == nil || !strings.Contains(err.Error(), "d.json") {
		t.Errorf("ReadDir with a bad file = %v, want an error naming d.json", err)
	}
	if _, err := ReadDir(filepath.Join(dir, "missing")); err == nil {
		t.Error("ReadDir of a missing directory succeeded")
	}
}

func TestTableSizes(t *testing.T) {
	s := &Story{Cases: []Case{{HeaderTableSize: -1}, {HeaderTableSize: 256}, {HeaderTableSize: -1}, {HeaderTableSize: 0}, {HeaderTableSize: -1}}}
	if diff := cmp.Diff([]int{4096, 256, 256, 0, 0}, s.TableSizes()); diff != "" {
		t.Errorf("TableSizes (-want +got):\n%s", diff)
	}
}

func TestSharedDir(t *testing.T) {
	root := t.TempDir()
	mod := filepath.Join(root, "checkout")
	deep := filepath.Join(mod, "a", "b")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module github.com/metapack/metapack\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A nested module's go.mod is passed over.
	if err := os.WriteFile(filepath.Join(mod, "a", "go.mod"), []byte("module github.com/metapack/metapack/a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(deep)
	if dir, ok := SharedDir(); ok {
		t.Errorf("SharedDir() = %q, true without a shared folder", dir)
	}
	if err := os.Mkdir(filepath.Join(root, "shared"), 0o755); err != nil {
		t.Fatal(err)
	}
	dir, ok := SharedDir()
	if !ok {
		t.Fatal("SharedDir() = false beside a shared folder")
	}
	got, _ := filepath.EvalSymlinks(dir)
	want, _ := filepath.EvalSymlinks(filepath.Join(root, "shared"))
	if got != want {
		t.Errorf("SharedDir() = %q, want %q", got, want)
	}
}

// sharedOrSkip returns the shared folder or skips the test.
func sharedOrSkip(t *testing.T) string { return Shared(t) }

var corpusDirs = []struct {
	name string
	wire bool
}{
	{"raw-data", false},
	{"nghttp2", true},
	{"go-hpack", true},
	{"python-hpack", true},
	{"node-http2-hpack", true},
	{"haskell-http2-linear-huffman", true},
}

func TestCorpus(t *testing.T) {
	shared := sharedOrSkip(t)
	raw, err := ReadDir(filepath.Join(shared, "hpack-test-case", "raw-data"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range corpusDirs {
		t.Run(d.name, func(t *testing.T) {
			stories, err := ReadDir(filepath.Join(shared, "hpack-test-case", d.name))
			if err != nil {
				t.Fatal(err)
			}
			if len(stories) == 0 {
				t.Fatal("no stories")
			}
			if len(stories) != len(raw) {
				t.Errorf("%d stories, raw-data has %d", len(stories), len(raw))
			}
			total := 0
			for si, s := range stories {
				if len(s.Cases) == 0 {
					t.Errorf("%s: no cases", s.Name)
				}
				total += len(s.Cases)
				for i, c := range s.Cases {
					if c.Seqno != i {
						t.Errorf("%s: case %d has seqno %d", s.Name, i, c.Seqno)
					}
					if len(c.Headers) == 0 {
						t.Errorf("%s: case %d has no headers", s.Name, i)
					}
					if d.wire && len(c.Wire) == 0 {
						t.Errorf("%s: case %d has no wire", s.Name, i)
					}
					if !d.wire && c.Wire != nil {
						t.Errorf("%s: case %d has a wire in raw-data", s.Name, i)
					}
					if c.DynamicTable != nil || c.DynamicTableSize != -1 {
						t.Errorf("%s: case %d has dynamic table data", s.Name, i)
					}
				}
				if si < len(raw) {
					if s.Name != raw[si].Name {
						t.Errorf("story %d is %s, raw-data's is %s", si, s.Name, raw[si].Name)
					} else if len(s.Cases) == len(raw[si].Cases) {
						for i := range s.Cases {
							if slices.Equal(raw[si].Cases[i].Headers, s.Cases[i].Headers) {
								continue
							}
							if diff := cmp.Diff(raw[si].Cases[i].Headers, s.Cases[i].Headers); diff != "" {
								t.Errorf("%s: case %d headers differ from raw-data (-raw +%s):\n%s", s.Name, i, d.name, diff)
								break
							}
						}
					} else {
						t.Errorf("%s: %d cases, raw-data has %d", s.Name, len(s.Cases), len(raw[si].Cases))
					}
				}
				if d.wire {
					checkDecodes(t, s)
				}
			}
			t.Logf("%d stories, %d cases", len(stories), total)
		})
	}
}

// checkDecodes decodes every wire with x/net's decoder and compares the
// result with the headers: a check that wire and headers were paired and
// ordered correctly.
func checkDecodes(t *testing.T, s *Story) {
	t.Helper()
	var got []Header
	dec := xhpack.NewDecoder(DefaultHeaderTableSize, func(f xhpack.HeaderField) {
		got = append(got, Header{f.Name, f.Value})
	})
	for i, c := range s.Cases {
		if c.HeaderTableSize >= 0 {
			dec.SetAllowedMaxDynamicTableSize(uint32(c.HeaderTableSize))
			if i == 0 {
				// The connection starts at this size, with no size update
				// on the wire (as in RFC 7541 C.5 and C.6).
				dec.SetMaxDynamicTableSize(uint32(c.HeaderTableSize))
			}
		}
		got = got[:0]
		if _, err := dec.Write(c.Wire); err != nil {
			t.Errorf("%s: case %d: x/net hpack: %v", s.Name, i, err)
			return
		}
		if err := dec.Close(); err != nil {
			t.Errorf("%s: case %d: x/net hpack: %v", s.Name, i, err)
			return
		}
		if slices.Equal(c.Headers, got) {
			continue
		}
		if diff := cmp.Diff(c.Headers, got); diff != "" {
			t.Errorf("%s: case %d: decoded wire differs (-headers +decoded):\n%s", s.Name, i, diff)
			return
		}
	}
}

func TestRFCAppendix(t *testing.T) {
	shared := sharedOrSkip(t)
	s, err := ReadFile(filepath.Join(shared, "rfc7541", "appendix-4.json"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "appendix-4.json" || len(s.Cases) != 3 {
		t.Fatalf("%s: %d cases, want 3", s.Name, len(s.Cases))
	}
	c := s.Cases[2]
	wantTable := []Header{{"custom-key", "custom-value"}, {"cache-control", "no-cache"}, {":authority", "www.example.com"}}
	if diff := cmp.Diff(wantTable, c.DynamicTable); diff != "" {
		t.Errorf("case 2 dynamic table (-want +got):\n%s", diff)
	}
	if c.DynamicTableSize != 164 {
		t.Errorf("case 2 dynamic table size %d, want 164", c.DynamicTableSize)
	}
	if s.Cases[0].HeaderTableSize != 4096 || s.Cases[1].HeaderTableSize != -1 {
		t.Errorf("header table sizes %d, %d; want 4096, -1", s.Cases[0].HeaderTableSize, s.Cases[1].HeaderTableSize)
	}

	// Every appendix: the table sizes add up, and the wires decode.
	all, err := ReadDir(filepath.Join(shared, "rfc7541"))
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 4 {
		t.Errorf("%d appendix stories, want 4", len(all))
	}
	for _, s := range all {
		for i, c := range s.Cases {
			if c.DynamicTable == nil || c.DynamicTableSize < 0 {
				t.Errorf("%s: case %d lacks dynamic table data", s.Name, i)
				continue
			}
			size := 0
			for _, h := range c.DynamicTable {
				size += len(h.Name) + len(h.Value) + 32
			}
			if size != c.DynamicTableSize {
				t.Errorf("%s: case %d: entries add up to %d, dynamic_table_size is %d", s.Name, i, size, c.DynamicTableSize)
			}
		}
		checkDecodes(t, s)
	}
}

// TestSharedSkips checks that Shared skips, with SkipMessage, beside no
// shared folder and for a path the folder lacks, and returns the path
// otherwise.
func TestSharedSkips(t *testing.T) {
	root := t.TempDir()
	mod := filepath.Join(root, "checkout")
	if err := os.MkdirAll(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module github.com/metapack/metapack\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(mod)
	skipped := func(elems ...string) (msg string, path string) {
		var rec skipRecorder
		done := make(chan struct{})
		go func() {
			defer close(done)
			path = Shared(&rec, elems...)
		}()
		<-done
		return rec.msg, path
	}
	if msg, _ := skipped("hpack-test-case"); !strings.HasPrefix(msg, SkipMessage) {
		t.Errorf("without a shared folder: skip message %q", msg)
	}
	if err := os.MkdirAll(filepath.Join(root, "shared", "rfc7541"), 0o755); err != nil {
		t.Fatal(err)
	}
	if msg, _ := skipped("hpack-test-case"); !strings.HasPrefix(msg, SkipMessage) {
		t.Errorf("without the corpus in it: skip message %q", msg)
	}
	if msg, p := skipped("rfc7541"); msg != "" || filepath.Base(p) != "rfc7541" {
		t.Errorf("with rfc7541 present: skipped %q, path %q", msg, p)
	}
}

// skipRecorder is a testing.TB whose Skip records its message and ends
// the goroutine, as testing's does.
type skipRecorder struct {
	testing.TB
	msg string
}

func (r *skipRecorder) Helper() {}
func (r *skipRecorder) Skip(args ...any) {
	r.msg = fmt.Sprint(args...)
	runtime.Goexit()
}
