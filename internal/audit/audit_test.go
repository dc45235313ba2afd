package audit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// codecPackages are the packages that must build without unsafe under
// -tags purego, relative to the module root.
var codecPackages = []string{"hpack", "internal/hcode", "mdelem", "intern", "staticdata", "internal/tier"}

// root is the module root, from this package's folder.
const root = "../.."

// TestPuregoImportsNoUnsafe lists, with -tags purego, the imports of the
// codec packages and of every package of this module they depend on: none
// may import unsafe.
func TestPuregoImportsNoUnsafe(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH")
	}
	args := []string{"list", "-tags", "purego", "-deps", "-f", "{{.ImportPath}}: {{join .Imports \" \"}}"}
	for _, p := range codecPackages {
		args = append(args, "./"+p)
	}
	cmd := exec.Command(goTool, args...)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, ": ")
		if !strings.HasPrefix(pkg, "github.com/metapack/metapack") {
			continue
		}
		seen++
		if slices.Contains(strings.Fields(imports), "unsafe") {
			t.Errorf("%s imports unsafe under -tags purego", pkg)
		}
	}
	if seen < len(codecPackages) {
		t.Fatalf("go list showed %d of the module's packages, want at least %d:\n%s", seen, len(codecPackages), out)
	}
}

// nonTestFiles parses the non-test Go files of the package in dir, a path
// relative to the module root, with mode, into fset. It fails t when the
// folder has none.
func nonTestFiles(t *testing.T, fset *token.FileSet, dir string, mode parser.Mode) []*ast.File {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(root, dir, "*.go"))
	var files []*ast.File
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, mode)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		t.Fatalf("%s: no Go files", dir)
	}
	return files
}

// safetyTestName finds the names of tests and fuzz targets in a comment.
var safetyTestName = regexp.MustCompile(`\b(?:Test|Fuzz)[A-Z0-9]\w*`)

// TestUnsafeUsesAreDocumented checks every use of unsafe in the codec
// packages' non-test files: the function it is in, or a comment in that
// function before it, must carry a "SAFETY:" comment; every SAFETY comment
// must name at least one test or fuzz target; and every name must be a
// test or fuzz target that exists in the module.
func TestUnsafeUsesAreDocumented(t *testing.T) {
	tests := moduleTests(t)
	fset := token.NewFileSet()
	uses := 0
	for _, pkg := range codecPackages {
		for _, f := range nonTestFiles(t, fset, pkg, parser.ParseComments) {
			for _, cg := range f.Comments {
				text := cg.Text()
				if !strings.Contains(text, "SAFETY:") {
					continue
				}
				names := safetyTestName.FindAllString(text[strings.Index(text, "SAFETY:"):], -1)
				if len(names) == 0 {
					t.Errorf("%s: a SAFETY comment names no test: %q", fset.Position(cg.Pos()), firstLine(text))
				}
				for _, n := range names {
					if !tests[n] {
						t.Errorf("%s: a SAFETY comment names %s, which is no test or fuzz target of the module", fset.Position(cg.Pos()), n)
					}
				}
			}
			for _, use := range unsafeUses(f) {
				uses++
				if !hasSafetyComment(f, use) {
					t.Errorf("%s: unsafe.%s without a SAFETY comment in its function or before it", fset.Position(use.Pos()), use.Sel.Name)
				}
			}
		}
	}
	t.Logf("%d uses of unsafe in the default build's non-test files", uses)
}

// unsafeUses returns the selectors unsafe.X in f, where f imports unsafe.
func unsafeUses(f *ast.File) []*ast.SelectorExpr {
	imported := false
	for _, imp := range f.Imports {
		if imp.Path.Value == `"unsafe"` && imp.Name == nil {
			imported = true
		}
	}
	if !imported {
		return nil
	}
	var out []*ast.SelectorExpr
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == "unsafe" {
				out = append(out, sel)
			}
		}
		return true
	})
	return out
}

// hasSafetyComment reports whether use sits in a declaration whose doc
// comment, or a comment inside it before use, has "SAFETY:".
func hasSafetyComment(f *ast.File, use *ast.SelectorExpr) bool {
	for _, d := range f.Decls {
		if use.Pos() < d.Pos() || use.Pos() >= d.End() {
			continue
		}
		var doc *ast.CommentGroup
		switch d := d.(type) {
		case *ast.FuncDecl:
			doc = d.Doc
		case *ast.GenDecl:
			doc = d.Doc
		}
		if doc != nil && strings.Contains(doc.Text(), "SAFETY:") {
			return true
		}
		for _, cg := range f.Comments {
			if cg.Pos() >= d.Pos() && cg.Pos() < use.Pos() && strings.Contains(cg.Text(), "SAFETY:") {
				return true
			}
		}
		return false
	}
	return false
}

// moduleTests returns the names of the Test and Fuzz functions in the
// module's _test.go files.
func moduleTests(t *testing.T) map[string]bool {
	names := map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && fn.Recv == nil && safetyTestName.MatchString(fn.Name.Name) {
				names[fn.Name.Name] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// exportedVarAllowed lists the exported package-level variables the codec
// packages may have besides error sentinels, with the reason.
var exportedVarAllowed = map[string]string{}

// TestNoExportedMutableTables parses the codec packages and fails on any
// exported package-level variable that is not an error sentinel (a value
// of errors.New or fmt.Errorf) or listed in exportedVarAllowed: the codec's
// safety rests on its tables, which must not be writable from outside.
func TestNoExportedMutableTables(t *testing.T) {
	fset := token.NewFileSet()
	for _, pkg := range codecPackages {
		for _, f := range nonTestFiles(t, fset, pkg, parser.SkipObjectResolution) {
			for _, decl := range f.Decls {
				gd, ok := decl.(*ast.GenDecl)
				if !ok || gd.Tok != token.VAR {
					continue
				}
				for _, spec := range gd.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, name := range vs.Names {
						if !name.IsExported() {
							continue
						}
						full := pkg + "." + name.Name
						if _, ok := exportedVarAllowed[full]; ok {
							continue
						}
						if i < len(vs.Values) && isErrorSentinel(vs.Values[i]) {
							continue
						}
						t.Errorf("%s: exported variable %s: make it unexported, with a read-only accessor", fset.Position(name.Pos()), full)
					}
				}
			}
		}
	}
}

// isErrorSentinel reports whether e is a call of errors.New or fmt.Errorf.
func isErrorSentinel(e ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && (pkg.Name == "errors" && sel.Sel.Name == "New" || pkg.Name == "fmt" && sel.Sel.Name == "Errorf")
}
