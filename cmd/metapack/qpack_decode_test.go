package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metapack/metapack/internal/qif"
)

// rfcB1 is RFC 9204 Appendix B.1's field section, a literal with a static
// name reference (:path /index.html), as a record of stream 1.
var rfcB1 = qif.AppendRecord(nil, 1, []byte("\x00\x00\x51\x0b/index.html"))

func TestQpackDecodeUsage(t *testing.T) {
	dir := t.TempDir()
	named := filepath.Join(dir, "x.out.0.0.0")
	if err := os.WriteFile(named, rfcB1, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		args       []string
		wantStderr string
	}{
		{"no FILE", []string{"--capacity", "0", "--blocked", "0"}, "metapack qpack-decode: want one FILE, got 0 operands\n"},
		{"two FILEs", []string{"--capacity", "0", "--blocked", "0", "a", "b"}, "metapack qpack-decode: want one FILE, got 2 operands\n"},
		{"capacity too big", []string{"--capacity", "4294967296", "--blocked", "0", named}, "metapack qpack-decode: --capacity 4294967296 is above 2^32-1\n"},
		{"capacity too big, over the name's", []string{"--capacity", "4294967296", named}, "metapack qpack-decode: --capacity 4294967296 is above 2^32-1\n"},
		{"blocked too big", []string{"--capacity", "0", "--blocked", "4294967296", named}, "metapack qpack-decode: --blocked 4294967296 is above 2^32-1\n"},
		{"not a number", []string{"--capacity", "x", named}, `metapack qpack-decode: invalid value "x" for flag -capacity: parse error` + "\n"},
		{"stdin without flags", []string{"-"}, `metapack qpack-decode: --capacity not given, and FILE "-" does not name it (<qif>.out.<capacity>.<blocked>.<ack>)` + "\n"},
		{"stdin without --blocked", []string{"--capacity", "0", "-"}, `metapack qpack-decode: --blocked not given, and FILE "-" does not name it (<qif>.out.<capacity>.<blocked>.<ack>)` + "\n"},
		{"name without the convention", []string{"--blocked", "0", "draft-examples.out"}, `metapack qpack-decode: --capacity not given, and FILE "draft-examples.out" does not name it (<qif>.out.<capacity>.<blocked>.<ack>)` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCmd(t, append([]string{"qpack-decode"}, tt.args...)...)
			want := tt.wantStderr + "Run 'metapack qpack-decode -h' for usage.\n"
			if code != 2 || stdout != "" || stderr != want {
				t.Errorf("exit code %d, stdout %q, stderr %q; want 2, nothing, %q", code, stdout, stderr, want)
			}
		})
	}
}

func TestQpackDecodeBadInput(t *testing.T) {
	dir := t.TempDir()
	cut := filepath.Join(dir, "cut.out.0.0.0")
	if err := os.WriteFile(cut, rfcB1[:len(rfcB1)-1], 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		args       []string
		stdin      string
		wantStderr string
	}{
		{"missing file", []string{filepath.Join(dir, "none.out.0.0.0")}, "", "metapack: open " + filepath.Join(dir, "none.out.0.0.0") + ": no such file or directory\n"},
		{"record cut short", []string{cut}, "", "metapack: " + cut + ": offset 0: stream 1's record says 15 bytes, 14 follow\n"},
		{"record cut short on stdin", []string{"--capacity", "0", "--blocked", "0", "-"}, "\x00\x00\x00", "metapack: stdin: offset 0: record header cut short: 3 of 12 bytes\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCmdStdin(t, tt.stdin, append([]string{"qpack-decode"}, tt.args...)...)
			if code != 2 || stdout != "" || stderr != tt.wantStderr {
				t.Errorf("exit code %d, stdout %q, stderr %q; want 2, nothing, %q", code, stdout, stderr, tt.wantStderr)
			}
		})
	}
}

func TestQpackDecode(t *testing.T) {
	dir := t.TempDir()
	named := filepath.Join(dir, "b1.out.0.0.0")
	if err := os.WriteFile(named, rfcB1, 0o644); err != nil {
		t.Fatal(err)
	}
	// Stream 3 before stream 1: the output is in stream-ID order.
	two := string(qif.AppendRecord(qif.AppendRecord(nil, 3, []byte("\x00\x00\xd1")), 1, []byte("\x00\x00\x51\x0b/index.html")))
	tests := []struct {
		name  string
		args  []string
		stdin string
		want  string
	}{
		{"settings from the name", []string{named}, "", ":path\t/index.html\n\n"},
		{"flags", []string{"--capacity", "4096", "--blocked", "100", named}, "", ":path\t/index.html\n\n"},
		{"stdin", []string{"--capacity", "0", "--blocked", "0", "-"}, string(rfcB1), ":path\t/index.html\n\n"},
		{"stream-ID order", []string{"--capacity", "0", "--blocked", "0", "-"}, two, ":path\t/index.html\n\n:method\tGET\n\n"},
		{"no records", []string{"--capacity", "0", "--blocked", "0", "-"}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCmdStdin(t, tt.stdin, append([]string{"qpack-decode"}, tt.args...)...)
			if code != 0 || stdout != tt.want || stderr != "" {
				t.Errorf("exit code %d, stdout %q, stderr %q; want 0, %q, nothing", code, stdout, stderr, tt.want)
			}
		})
	}
}

func TestQpackDecodeFails(t *testing.T) {
	tests := []struct {
		name       string
		in         []byte
		wantStderr string // a prefix
	}{
		// A literal naming dynamic entry 1 with a Required Insert Count of 0.
		{"bad reference", qif.AppendRecord(nil, 1, []byte("\x00\x00\x41")), "metapack: stdin: record 1 (stream 1): "},
		// Duplicate of an entry of an empty table.
		{"bad encoder stream", qif.AppendRecord(nil, 0, []byte{0x01}), "metapack: stdin: record 1 (encoder stream): "},
		{"two sections on a stream", append(append([]byte{}, rfcB1...), rfcB1...), "metapack: stdin: record 2: stream 1 has a second section\n"},
		// Required Insert Count 1 (encoded 2), never inserted.
		{"still blocked", qif.AppendRecord(nil, 1, []byte("\x02\x00\x80")), "metapack: stdin: 1 section(s) still blocked at the end of the input, on streams [1]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCmdStdin(t, string(tt.in), "qpack-decode", "--capacity", "4096", "--blocked", "100", "-")
			if code != 1 || stdout != "" || !strings.HasPrefix(stderr, tt.wantStderr) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit code %d, stdout %q, stderr %q; want 1, nothing, one line starting %q", code, stdout, stderr, tt.wantStderr)
			}
		})
	}
}

// TestQpackDecodeCorpus decodes ls-qpack's and nghttp3's netbsd files at
// every setting in the corpus and checks that the output is the QIF's text
// without its comments.
func TestQpackDecodeCorpus(t *testing.T) {
	want, err := os.ReadFile(qif.Path(t, "qifs", "netbsd.qif"))
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(qif.Path(t, "encoded", "qpack-05"), "*", "netbsd.out.*"))
	if len(files) == 0 {
		t.Fatal("no netbsd.out.* file in the corpus")
	}
	for _, f := range files {
		t.Run(filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f), func(t *testing.T) {
			code, stdout, stderr := runCmd(t, "qpack-decode", f)
			if code != 0 || stderr != "" {
				t.Fatalf("exit code %d, stderr %q", code, stderr)
			}
			if stdout != string(want) {
				t.Errorf("output differs from netbsd.qif (%d bytes, want %d)", len(stdout), len(want))
			}
		})
	}
}
