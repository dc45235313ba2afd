package audit

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// importAliases is the repository's one convention for import names. Only
// the three packages called hpack are renamed, always the same way;
// metapack's own hpack keeps its name except inside package compat/hpack,
// whose own name is hpack, and the drop-in's own tests may import it under
// x/net's name, as code that adopts it does. Every other import keeps its
// package's name.
var importAliases = map[string]string{
	"golang.org/x/net/http2/hpack":              "xhpack",
	"github.com/metapack/metapack/compat/hpack": "compat",
	"github.com/metapack/metapack/hpack":        "", // mhpack in compat/hpack
}

// TestImportAliases checks every Go file of the module and of
// examples/grpcserver against importAliases.
func TestImportAliases(t *testing.T) {
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "integration") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		inCompat := filepath.ToSlash(filepath.Dir(path)) == root+"/compat/hpack"
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			got := ""
			if imp.Name != nil {
				got = imp.Name.Name
			}
			want, renamed := importAliases[p]
			if p == "github.com/metapack/metapack/hpack" && inCompat {
				want = "mhpack"
			}
			if p == "github.com/metapack/metapack/compat/hpack" && inCompat && got == "" {
				continue // the drop-in's own tests and example, under x/net's name as a user's code has it
			}
			if got == "_" || (!renamed && got == "") {
				continue
			}
			if got != want {
				t.Errorf("%s: imports %q as %q, want %q", path, p, got, want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("checked %d files: the walk missed the module", checked)
	}
}
