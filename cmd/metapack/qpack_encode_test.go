package main

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/metapack/metapack/internal/qif"
)

func TestQpackEncodeUsage(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		wantStderr string
	}{
		{"no FILE", nil, "metapack qpack-encode: want one FILE.qif, got 0 operands\n"},
		{"two FILEs", []string{"a.qif", "b.qif"}, "metapack qpack-encode: want one FILE.qif, got 2 operands\n"},
		{"capacity too big", []string{"--capacity", "4294967296", "a.qif"}, "metapack qpack-encode: --capacity 4294967296 is above 2^32-1\n"},
		{"blocked too big", []string{"--blocked", "4294967296", "a.qif"}, "metapack qpack-encode: --blocked 4294967296 is above 2^32-1\n"},
		{"ack 2", []string{"--ack", "2", "a.qif"}, "metapack qpack-encode: --ack 2: want 0 or 1\n"},
		{"ack not a number", []string{"--ack", "yes", "a.qif"}, `metapack qpack-encode: invalid value "yes" for flag -ack: parse error` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCmd(t, append([]string{"qpack-encode"}, tt.args...)...)
			want := tt.wantStderr + "Run 'metapack qpack-encode -h' for usage.\n"
			if code != 2 || stdout != "" || stderr != want {
				t.Errorf("exit code %d, stdout %q, stderr %q; want 2, nothing, %q", code, stdout, stderr, want)
			}
		})
	}
}

func TestQpackEncodeBadInput(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name       string
		args       []string
		stdin      string
		wantStderr string
	}{
		{"missing file", []string{filepath.Join(dir, "none.qif")}, "", "metapack: open " + filepath.Join(dir, "none.qif") + ": no such file or directory\n"},
		{"a line without a tab", []string{"-"}, "a\tb\nc d\n", "metapack: stdin: line 2: no tab between name and value: \"c d\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCmdStdin(t, tt.stdin, append([]string{"qpack-encode"}, tt.args...)...)
			if code != 2 || stdout != "" || stderr != tt.wantStderr {
				t.Errorf("exit code %d, stdout %q, stderr %q; want 2, nothing, %q", code, stdout, stderr, tt.wantStderr)
			}
		})
	}
}

// TestQpackEncodeRoundTrip encodes a QIF with qpack-encode at several
// settings and decodes the output with qpack-decode at the same ones.
func TestQpackEncodeRoundTrip(t *testing.T) {
	const in = "# a comment\n:method\tGET\n:path\t/\n:authority\texample.com\nx-empty\t\n\n" +
		":method\tGET\n:path\t/a\n:authority\texample.com\nx-tab\ta\tb\n\n" +
		":method\tGET\n:path\t/a\n:authority\texample.com\nx-tab\ta\tb\n"
	want, err := qif.Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	for _, cfg := range []string{"0.0.0", "4096.100.1", "4096.0.1", "4096.100.0", "256.100.1", "64.1.0"} {
		t.Run(cfg, func(t *testing.T) {
			c, err := qif.ParseConfig(cfg)
			if err != nil {
				t.Fatal(err)
			}
			capacity, blocked, ack := strconv.FormatUint(c.Capacity, 10), strconv.FormatUint(c.Blocked, 10), "0"
			if c.Ack {
				ack = "1"
			}
			code, wire, stderr := runCmdStdin(t, in, "qpack-encode", "--capacity", capacity, "--blocked", blocked, "--ack", ack, "-")
			if code != 0 || stderr != "" {
				t.Fatalf("qpack-encode: exit code %d, stderr %q", code, stderr)
			}
			code, out, stderr := runCmdStdin(t, wire, "qpack-decode", "--capacity", capacity, "--blocked", blocked, "-")
			if code != 0 || stderr != "" {
				t.Fatalf("qpack-decode: exit code %d, stderr %q", code, stderr)
			}
			got, err := qif.Parse([]byte(out))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestQpackEncodeCorpus encodes netbsd.qif, writes the output under the
// corpus's file-name convention and decodes it with the settings that the
// name gives.
func TestQpackEncodeCorpus(t *testing.T) {
	path := qif.Path(t, "qifs", "netbsd.qif")
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	code, wire, stderr := runCmd(t, "qpack-encode", "--capacity", "4096", "--blocked", "100", "--ack", "1", path)
	if code != 0 || stderr != "" {
		t.Fatalf("qpack-encode: exit code %d, stderr %q", code, stderr)
	}
	out := filepath.Join(t.TempDir(), "netbsd.out.4096.100.1")
	if err := os.WriteFile(out, []byte(wire), 0o644); err != nil {
		t.Fatal(err)
	}
	code, got, stderr := runCmd(t, "qpack-decode", out)
	if code != 0 || stderr != "" {
		t.Fatalf("qpack-decode: exit code %d, stderr %q", code, stderr)
	}
	if got != string(want) {
		t.Errorf("netbsd.qif does not come back: %d bytes, want %d", len(got), len(want))
	}
}
