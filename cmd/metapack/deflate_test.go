package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metapack/metapack/internal/story"
	"github.com/metapack/metapack/internal/workload"
)

// TestDeflateInflate encodes stories with deflate and checks the result
// with inflate --check, at the default and a small initial table size.
func TestDeflateInflate(t *testing.T) {
	grpc := workload.GRPCStory(300, 7)
	grpc.Cases[100].HeaderTableSize = 512 // a SETTINGS change mid-story
	var b strings.Builder
	if err := grpc.Write(&b); err != nil {
		t.Fatal(err)
	}
	dirs := map[string]string{"generated": writeFiles(t, map[string]string{"grpc.json": b.String(), "c3.json": rfcC3})}
	if shared, ok := story.SharedDir(); ok {
		dirs["raw-data"] = filepath.Join(shared, "hpack-test-case", "raw-data")
	}
	for name, in := range dirs {
		for _, size := range []string{"4096", "256"} {
			t.Run(name+"/"+size, func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "out")
				code, stdout, stderr := runCmd(t, "deflate", "--table-size", size, in, "-o", out)
				if code != 0 || stdout != "" || stderr != "" {
					t.Fatalf("deflate: exit code %d, stdout %q, stderr:\n%s", code, stdout, stderr)
				}
				code, stdout, stderr = runCmd(t, "inflate", "--check", out)
				if code != 0 || !strings.HasSuffix(stdout, "0 mismatches, 0 errors\n") {
					t.Fatalf("inflate --check: exit code %d, stdout %q, stderr:\n%s", code, stdout, stderr)
				}
				stories, err := story.ReadDir(out)
				if err != nil {
					t.Fatal(err)
				}
				for _, s := range stories {
					if !strings.HasPrefix(s.Description, "metapack deflate ") || !strings.HasSuffix(s.Description, "initial header table size "+size) {
						t.Errorf("%s: description %q", s.Name, s.Description)
					}
					if s.Cases[0].HeaderTableSize < 0 {
						t.Errorf("%s: the first case has no header_table_size", s.Name)
					}
				}
			})
		}
	}
}

func TestDeflateStdout(t *testing.T) {
	dir := writeFiles(t, map[string]string{"c3.json": rfcC3})
	code, stdout, stderr := runCmd(t, "deflate", filepath.Join(dir, "c3.json"))
	if code != 0 || stderr != "" {
		t.Fatalf("exit code %d, stderr:\n%s", code, stderr)
	}
	s, err := story.Read(strings.NewReader(stdout))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Cases) != 3 || s.Cases[2].Headers[4] != (story.Header{Name: "custom-key", Value: "custom-value"}) {
		t.Errorf("headers not kept: %+v", s.Cases)
	}
	for _, c := range s.Cases {
		if len(c.Wire) == 0 || c.DynamicTable != nil || c.DynamicTableSize >= 0 {
			t.Errorf("case %d: wire %x, dynamic table %v, size %d", c.Seqno, c.Wire, c.DynamicTable, c.DynamicTableSize)
		}
	}
}

func TestDeflateErrors(t *testing.T) {
	dir := writeFiles(t, map[string]string{"c3.json": rfcC3})
	if err := os.WriteFile(filepath.Join(dir, "huge.json"), []byte(`{"cases": [{"seqno": 0, "header_table_size": 4294967296, "headers": []}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"deflate"}, "metapack deflate: no FILE_OR_DIR given"},
		{[]string{"deflate", "--table-size", "-1", dir}, "metapack deflate: invalid value"},
		{[]string{"deflate", "--table-size", "4294967296", dir}, "metapack deflate: --table-size 4294967296 is above 2^32-1"},
		{[]string{"deflate", filepath.Join(dir, "huge.json")}, "metapack: " + filepath.Join(dir, "huge.json") + ": case 0 (seqno 0): \"header_table_size\" 4294967296 is above 2^32-1"},
		{[]string{"deflate", "-o", dir, filepath.Join(dir, "c3.json")}, "metapack: -o " + dir + ": would overwrite the input"},
	}
	for _, tt := range tests {
		code, stdout, stderr := runCmd(t, tt.args...)
		if code != 2 || stdout != "" || !strings.HasPrefix(stderr, tt.want) {
			t.Errorf("%q: exit code %d, stdout %q, stderr %q; want 2, nothing, %q...", tt.args, code, stdout, stderr, tt.want)
		}
	}
}
