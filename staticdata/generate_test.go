package staticdata

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestGeneratedFilesUpToDate regenerates into a temporary folder and fails,
// naming the file, when a committed generated file differs.
func TestGeneratedFilesUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generator; skipped with -short")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH to run the generator")
	}
	tmp := t.TempDir()
	cmd := exec.Command(goTool, "run", "./gen", "-data", "gen/data", "-out", tmp)
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("generator failed: %v\n%s", err, out)
	}
	generated, err := filepath.Glob(filepath.Join(tmp, "*.go"))
	if err != nil || len(generated) == 0 {
		t.Fatalf("generator wrote no files (%v)", err)
	}
	for _, path := range generated {
		name := filepath.Base(path)
		want, _ := os.ReadFile(path)
		got, err := os.ReadFile(name)
		if err != nil {
			t.Errorf("staticdata/%s is missing: run go generate ./staticdata", name)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("staticdata/%s is stale: run go generate ./staticdata", name)
		}
	}
	committed, _ := filepath.Glob("*_gen.go")
	if len(committed) != len(generated) {
		t.Errorf("staticdata has %d generated files, the generator writes %d", len(committed), len(generated))
	}
	for _, name := range committed {
		src, _ := os.ReadFile(name)
		if !bytes.HasPrefix(src, []byte("// Code generated ")) || !bytes.Contains(src, []byte("DO NOT EDIT.")) {
			t.Errorf("staticdata/%s lacks the generated-code header", name)
		}
	}
}
