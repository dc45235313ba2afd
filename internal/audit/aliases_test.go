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
// the packages called hpack or qpack are renamed, always the same way:
// x/net's hpack is xhpack, a drop-in is compat, and metapack's own codec
// keeps its name except inside its drop-in, whose own name is the same,
// where it is mhpack or mqpack. A drop-in's own tests may import it under
// the original's name, as code that adopts it does. Every other import
// keeps its package's name.
var importAliases = map[string]string{
	"golang.org/x/net/http2/hpack":              "xhpack",
	"github.com/metapack/metapack/compat/hpack": "compat",
	"github.com/metapack/metapack/hpack":        "", // mhpack in compat/hpack
	"github.com/metapack/metapack/compat/qpack": "compat",
	"github.com/metapack/metapack/qpack":        "", // mqpack in compat/qpack
}

// dropIns maps each codec to its drop-in's directory and the name the
// codec takes there.
var dropIns = map[string]struct{ dir, name string }{
	"github.com/metapack/metapack/hpack": {"/compat/hpack", "mhpack"},
	"github.com/metapack/metapack/qpack": {"/compat/qpack", "mqpack"},
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
		dir := filepath.ToSlash(filepath.Dir(path))
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			got := ""
			if imp.Name != nil {
				got = imp.Name.Name
			}
			want, renamed := importAliases[p]
			if d, ok := dropIns[p]; ok && dir == root+d.dir {
				want = d.name
			}
			if strings.HasPrefix(p, "github.com/metapack/metapack/compat/") && dir == root+strings.TrimPrefix(p, "github.com/metapack/metapack") && got == "" {
				continue // the drop-in's own tests and example, under the original's name as a user's code has it
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
