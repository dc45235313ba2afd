package staticdata

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// generatedFiles are the files gen writes, relative to the module root.
var generatedFiles = []string{"internal/tier/static_gen.go", "staticdata/keys_gen.go", "internal/huffdata/huffman_gen.go"}

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
	cmd := exec.Command(goTool, "run", "./gen", "-data", "gen/data", "-root", tmp)
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("generator failed: %v\n%s", err, out)
	}
	var written []string
	err = filepath.WalkDir(tmp, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(tmp, path)
			written = append(written, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(written, sortedCopy(generatedFiles)) {
		t.Fatalf("the generator wrote %v, this test expects %v", written, generatedFiles)
	}
	for _, name := range generatedFiles {
		want, _ := os.ReadFile(filepath.Join(tmp, name))
		got, err := os.ReadFile(filepath.Join("..", name))
		if err != nil {
			t.Errorf("%s is missing: run go generate ./staticdata", name)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./staticdata", name)
		}
		if !bytes.HasPrefix(got, []byte("// Code generated ")) || !bytes.Contains(got, []byte("DO NOT EDIT.")) {
			t.Errorf("%s lacks the generated-code header", name)
		}
	}
	for _, dir := range []string{"staticdata", "internal/tier", "internal/huffdata"} {
		committed, _ := filepath.Glob(filepath.Join("..", dir, "*_gen.go"))
		for _, c := range committed {
			rel := dir + "/" + filepath.Base(c)
			if !slices.Contains(generatedFiles, rel) {
				t.Errorf("%s looks generated but the generator does not write it", rel)
			}
		}
	}
}

func sortedCopy(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}
