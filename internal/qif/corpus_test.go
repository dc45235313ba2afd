package qif

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDirFromEnv(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		env    string
		want   string
		wantOK bool
	}{
		{"a directory", dir, dir, true},
		{"missing", filepath.Join(dir, "nope"), "", false},
		{"a file", file, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(Env, tt.env)
			got, ok := Dir()
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("Dir() with $%s=%q = %q, %v; want %q, %v", Env, tt.env, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

// skipRecorder records what Path skips with.
type skipRecorder struct{ msg string }

func (s *skipRecorder) Helper() {}
func (s *skipRecorder) Skip(args ...any) {
	s.msg = args[0].(string)
	panic(s)
}

// pathOrSkip runs Path and returns its answer, or the skip message.
func pathOrSkip(elems ...string) (p, skipped string) {
	rec := &skipRecorder{}
	defer func() {
		if v := recover(); v != nil {
			if v != rec {
				panic(v)
			}
			skipped = rec.msg
		}
	}()
	return Path(rec, elems...), ""
}

func TestPath(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "qifs"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		env      string
		elems    []string
		want     string
		wantSkip bool
	}{
		{"present", dir, []string{"qifs"}, filepath.Join(dir, "qifs"), false},
		{"the folder itself", dir, nil, dir, false},
		{"path absent", dir, []string{"encoded"}, "", true},
		{"corpus absent", filepath.Join(dir, "nope"), []string{"qifs"}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(Env, tt.env)
			got, skipped := pathOrSkip(tt.elems...)
			if tt.wantSkip {
				if !strings.HasPrefix(skipped, SkipMessage) {
					t.Errorf("Path skipped with %q, want a message starting with SkipMessage", skipped)
				}
				return
			}
			if skipped != "" || got != tt.want {
				t.Errorf("Path = %q (skip %q), want %q", got, skipped, tt.want)
			}
		})
	}
}

// TestCorpusQIFs checks that the corpus's QIFs parse, and that the three
// that the benchmarks use hold what compare-qpack.sh counts: 784 header
// sets, 10,350 fields and 571,967 name and value bytes.
func TestCorpusQIFs(t *testing.T) {
	dir := Path(t, "qifs")
	files, err := filepath.Glob(filepath.Join(dir, "*.qif"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no QIF in %s (%v)", dir, err)
	}
	var sets, fields, raw int
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) == 0 {
				t.Fatal("no header set")
			}
			switch strings.TrimSuffix(filepath.Base(f), ".qif") {
			case "fb-req", "fb-resp", "netbsd":
				sets += len(got)
				for _, s := range got {
					fields += len(s)
				}
				raw += RawBytes(got)
			}
		})
	}
	if sets != 784 || fields != 10350 || raw != 571967 {
		t.Errorf("fb-req, fb-resp and netbsd: %d sets, %d fields, %d bytes; want 784, 10350, 571967", sets, fields, raw)
	}
}
