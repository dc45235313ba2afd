package xnettest

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/format"
	"go/importer"
	"go/parser"
	"go/printer"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// xnetTestFiles are the test files of x/net's http2/hpack that are ported.
var xnetTestFiles = []string{"hpack_test.go", "encode_test.go", "tables_test.go"}

const (
	// dropInPath is the package the ported tests run against.
	dropInPath = "github.com/metapack/metapack/compat/hpack"
	// dropInName is the name the ported tests refer to it by.
	dropInName = "hpack"
	// xnetPath is the import path x/net's package is type-checked as.
	xnetPath = "golang.org/x/net/http2/hpack"
)

// skipList names ported tests that check behaviour the drop-in
// deliberately does not have, each with the reason, citing the section
// "Differences from x/net" of compat/hpack's package doc. A skipped test
// is kept in the ported file with a t.Skip call at its top, so it still
// compiles and shows as SKIP. Only documented strictness belongs here: a
// test that fails for any other reason is a bug in the drop-in.
var skipList = map[string]string{}

// shims are stand-ins, written for the port, for unexported helpers of
// x/net's package that some tests call: small encoders of RFC 7541's wire
// format, and a limited Huffman decoder on metapack's codec. A test that
// uses only exported names and these is ported; the shims the kept tests
// use go into shims_test.go.
var shims = map[string]string{
	"initialHeaderTableSize": `// initialHeaderTableSize is HTTP/2's initial table size (RFC 9113 §6.5.2).
const initialHeaderTableSize = 4096`,
	"encodeTypeByte": `// encodeTypeByte returns the first byte of a literal with a new name:
// never indexed, with incremental indexing, or without indexing (RFC 7541 §6.2).
func encodeTypeByte(indexed, sensitive bool) byte {
	if sensitive {
		return 0x10
	}
	if indexed {
		return 0x40
	}
	return 0
}`,
	"appendVarInt": `// appendVarInt appends i as an RFC 7541 §5.1 integer with an n-bit prefix,
// the prefix's other bits zero.
func appendVarInt(dst []byte, n byte, i uint64) []byte {
	limit := uint64(1)<<n - 1
	if i < limit {
		return append(dst, byte(i))
	}
	dst = append(dst, byte(limit))
	for i -= limit; i >= 0x80; i >>= 7 {
		dst = append(dst, byte(i)|0x80)
	}
	return append(dst, byte(i))
}`,
	"huffmanDecode": `// huffmanDecode writes the decoding of v to buf; more than maxLen bytes
// (0: no limit) is ErrStringLength. It runs metapack's limited decoder.
func huffmanDecode(buf *bytes.Buffer, maxLen int, v []byte) error {
	if maxLen == 0 {
		maxLen = math.MaxInt
	}
	out, err := mhpack.AppendHuffmanDecode(nil, v, maxLen)
	switch {
	case errors.Is(err, mhpack.ErrStringLength):
		return hpack.ErrStringLength
	case err != nil:
		return hpack.ErrInvalidHuffman
	}
	buf.Write(out)
	return nil
}`,
}

// shimTests are x/net's tests of its own helpers that shims replace:
// ported, they would test the shim, so they are dropped.
var shimTests = map[string]string{
	"TestAppendVarInt": "tests x/net's unexported appendVarInt, which a shim replaces in the port",
}

// huffmanDecodeImports are the imports huffmanDecode's shim needs (the
// others need none).
const huffmanDecodeImports = `import (
	"bytes"
	"errors"
	"math"

	"github.com/metapack/metapack/compat/hpack"
	mhpack "github.com/metapack/metapack/hpack"
)`

// droppedDecl is a top-level declaration of x/net's test files that the
// port leaves out.
type droppedDecl struct {
	Name   string // function name, "(T).method", or the names a GenDecl declares
	File   string
	Reason string
}

// portResult is the outcome of porting x/net's test files.
type portResult struct {
	Files   map[string][]byte // base name -> ported source
	Ported  []string          // Test, Benchmark, Fuzz and Example functions kept
	Helpers []string          // other top-level declarations kept
	Shims   []string          // shims the kept declarations use
	Dropped []droppedDecl     // every declaration left out, tests and helpers
	Skipped map[string]string // ported tests skipped: name -> reason
}

// declNode is one top-level declaration (other than imports) of a test file.
type declNode struct {
	name    string
	file    int // index into the test files
	decl    ast.Decl
	recvOf  string   // x/net's type the declaration is a method of (it cannot move)
	reasons []string // unexported names of x/net's package it uses
	shims   []string // names of shims it uses
	deps    []*declNode
	qualify []*ast.Ident // references to exported package-level names of x/net's package
	pkgs    map[*types.PkgName]bool
	dropped bool
	why     string
}

// portXnetTests reads x/net's hpack package in srcDir, type-checks it
// with its test files, and returns the test files rewritten as package
// hpack_test of the drop-in. skips maps test names to skip reasons.
func portXnetTests(srcDir string, testFiles []string, skips map[string]string) (*portResult, error) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(srcDir)
	if err != nil {
		return nil, err
	}
	var libFiles, tests []*ast.File
	var testNames []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		if ok, err := build.Default.MatchFile(srcDir, name); err != nil {
			return nil, err
		} else if !ok {
			continue // gen.go is //go:build ignore
		}
		f, err := parser.ParseFile(fset, filepath.Join(srcDir, name), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		libFiles = append(libFiles, f)
	}
	for _, name := range testFiles {
		f, err := parser.ParseFile(fset, filepath.Join(srcDir, name), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		tests = append(tests, f)
		testNames = append(testNames, name)
	}
	if len(libFiles) == 0 {
		return nil, fmt.Errorf("no Go files of x/net's hpack package in %s", srcDir)
	}

	info := &types.Info{
		Defs:      map[*ast.Ident]types.Object{},
		Uses:      map[*ast.Ident]types.Object{},
		Implicits: map[ast.Node]types.Object{},
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check(xnetPath, fset, append(slices.Clone(libFiles), tests...), info)
	if err != nil {
		return nil, fmt.Errorf("type-checking x/net's hpack with its tests: %v", err)
	}

	testFileOf := map[*token.File]bool{}
	for _, f := range tests {
		testFileOf[fset.File(f.Pos())] = true
	}
	inTests := func(obj types.Object) bool { return testFileOf[fset.File(obj.Pos())] }

	// fieldOwner names the struct type of each field of x/net's types.
	fieldOwner := map[*types.Var]string{}
	for _, name := range pkg.Scope().Names() {
		if tn, ok := pkg.Scope().Lookup(name).(*types.TypeName); ok {
			if st, ok := tn.Type().Underlying().(*types.Struct); ok {
				for f := range st.Fields() {
					fieldOwner[f] = name
				}
			}
		}
	}

	// One node per top-level declaration; nodeOf maps what it declares to it.
	var nodes []*declNode
	nodeOf := map[types.Object]*declNode{}
	for fi, f := range tests {
		for _, d := range f.Decls {
			n := &declNode{file: fi, decl: d, pkgs: map[*types.PkgName]bool{}}
			switch d := d.(type) {
			case *ast.FuncDecl:
				n.name = d.Name.Name
				if d.Recv != nil && len(d.Recv.List) == 1 {
					recv := d.Recv.List[0].Type
					star := ""
					if s, ok := recv.(*ast.StarExpr); ok {
						recv, star = s.X, "*"
					}
					if id, ok := recv.(*ast.Ident); ok {
						n.name = fmt.Sprintf("(%s%s).%s", star, id.Name, d.Name.Name)
						if obj := info.Uses[id]; obj != nil && obj.Pkg() == pkg && !inTests(obj) {
							n.recvOf = id.Name
						}
					}
				}
				if obj := info.Defs[d.Name]; obj != nil {
					nodeOf[obj] = n
				}
			case *ast.GenDecl:
				if d.Tok == token.IMPORT {
					continue
				}
				var names []string
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						names = append(names, s.Name.Name)
						nodeOf[info.Defs[s.Name]] = n
					case *ast.ValueSpec:
						for _, id := range s.Names {
							names = append(names, id.Name)
							if obj := info.Defs[id]; obj != nil {
								nodeOf[obj] = n
							}
						}
					}
				}
				n.name = strings.Join(names, ", ")
			}
			nodes = append(nodes, n)
		}
	}

	// What each node refers to.
	for _, n := range nodes {
		seenReason := map[string]bool{}
		seenDep := map[*declNode]bool{}
		ast.Inspect(n.decl, func(x ast.Node) bool {
			id, ok := x.(*ast.Ident)
			if !ok {
				return true
			}
			obj := info.Uses[id]
			if obj == nil {
				return true
			}
			if pn, ok := obj.(*types.PkgName); ok {
				n.pkgs[pn] = true
				return true
			}
			if obj.Pkg() != pkg {
				return true // another package's name, a builtin, or a field of one
			}
			if d := nodeOf[obj]; d != nil {
				if d != n && !seenDep[d] {
					seenDep[d] = true
					n.deps = append(n.deps, d)
				}
				return true
			}
			if inTests(obj) {
				return true // a local, a parameter, a field of a test type
			}
			packageLevel := obj.Parent() == pkg.Scope()
			if _, ok := shims[obj.Name()]; ok && packageLevel {
				n.shims = append(n.shims, obj.Name())
				return true
			}
			if obj.Exported() {
				if packageLevel {
					n.qualify = append(n.qualify, id)
				}
				return true // or an exported field or method: fine in another package
			}
			r := describe(obj, packageLevel, fieldOwner)
			if !seenReason[r] {
				seenReason[r] = true
				n.reasons = append(n.reasons, r)
			}
			return true
		})
		var why []string
		if n.recvOf != "" {
			why = append(why, "is a method of x/net's type "+n.recvOf+" (methods cannot be declared on another package's type)")
		}
		if len(n.reasons) > 0 {
			why = append(why, "uses unexported "+strings.Join(n.reasons, ", "))
		}
		if r, ok := shimTests[n.name]; ok {
			why = append(why, r)
		}
		if len(why) > 0 {
			n.dropped = true
			n.why = strings.Join(why, "; ")
		}
	}
	// Drop what depends on dropped declarations, to a fixed point.
	for changed := true; changed; {
		changed = false
		for _, n := range nodes {
			if n.dropped {
				continue
			}
			var gone []string
			for _, d := range n.deps {
				if d.dropped {
					gone = append(gone, d.name)
				}
			}
			if len(gone) > 0 {
				n.dropped, changed = true, true
				n.why = "uses dropped " + strings.Join(gone, ", ")
			}
		}
	}

	res := &portResult{Files: map[string][]byte{}, Skipped: map[string]string{}}
	usedShims := map[string]bool{}
	for fi, f := range tests {
		var kept []ast.Decl
		var droppedRanges [][2]token.Pos
		used := map[*types.PkgName]bool{}
		needDropIn := false
		for _, n := range nodes {
			if n.file != fi {
				continue
			}
			if n.dropped {
				start := n.decl.Pos()
				if fd, ok := n.decl.(*ast.FuncDecl); ok && fd.Doc != nil {
					start = fd.Doc.Pos()
				} else if gd, ok := n.decl.(*ast.GenDecl); ok && gd.Doc != nil {
					start = gd.Doc.Pos()
				}
				droppedRanges = append(droppedRanges, [2]token.Pos{start, n.decl.End()})
				res.Dropped = append(res.Dropped, droppedDecl{Name: n.name, File: testNames[fi], Reason: n.why})
				continue
			}
			for _, id := range n.qualify {
				id.Name = dropInName + "." + id.Name
				needDropIn = true
			}
			for pn := range n.pkgs {
				used[pn] = true
			}
			for _, name := range n.shims {
				usedShims[name] = true
			}
			if fd, ok := n.decl.(*ast.FuncDecl); ok && isTestFunc(fd) {
				res.Ported = append(res.Ported, n.name)
				if reason, ok := skips[n.name]; ok {
					if err := insertSkip(fd, reason); err != nil {
						return nil, err
					}
					res.Skipped[n.name] = reason
				}
			} else {
				res.Helpers = append(res.Helpers, n.name)
			}
			kept = append(kept, n.decl)
		}

		// Imports: those the kept declarations use, and the drop-in.
		var imp *ast.GenDecl
		for _, d := range f.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
				imp = gd
				break
			}
		}
		if imp == nil {
			imp = &ast.GenDecl{Tok: token.IMPORT, TokPos: f.Name.End()}
		}
		var specs []ast.Spec
		for _, is := range f.Imports {
			var pn *types.PkgName
			if is.Name != nil {
				pn, _ = info.Defs[is.Name].(*types.PkgName)
			} else {
				pn, _ = info.Implicits[is].(*types.PkgName)
			}
			if pn != nil && used[pn] {
				specs = append(specs, &ast.ImportSpec{Path: &ast.BasicLit{Kind: token.STRING, Value: is.Path.Value}})
			}
		}
		if needDropIn {
			specs = append(specs, &ast.ImportSpec{Path: &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(dropInPath)}})
		}
		imp.Specs = specs
		if len(specs) > 1 && !imp.Lparen.IsValid() {
			imp.Lparen, imp.Rparen = imp.TokPos, imp.TokPos
		}
		var decls []ast.Decl
		if len(specs) > 0 {
			decls = append(decls, imp)
		}
		// Comments: drop those of dropped declarations and of the old imports.
		var comments []*ast.CommentGroup
		for _, cg := range f.Comments {
			drop := false
			for _, r := range droppedRanges {
				if cg.Pos() >= r[0] && cg.End() <= r[1] {
					drop = true
				}
			}
			for _, d := range f.Decls {
				if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT && cg.Pos() >= gd.Pos() && cg.End() <= gd.End() {
					drop = true
				}
			}
			if !drop {
				comments = append(comments, cg)
			}
		}
		out := &ast.File{
			Doc:      f.Doc,
			Package:  f.Package,
			Name:     ast.NewIdent(dropInName + "_test"),
			Decls:    append(decls, kept...),
			Comments: comments,
		}
		var buf bytes.Buffer
		fmt.Fprintf(&buf, "// Code generated by compat/hpack/xnettest from %s's %s; DO NOT EDIT.\n\n", xnetPath, testNames[fi])
		if err := (&printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}).Fprint(&buf, fset, out); err != nil {
			return nil, err
		}
		src, err := format.Source(buf.Bytes())
		if err != nil {
			return nil, fmt.Errorf("ported %s does not parse: %v\n%s", testNames[fi], err, buf.Bytes())
		}
		res.Files[testNames[fi]] = src
	}
	if len(usedShims) > 0 {
		var buf bytes.Buffer
		fmt.Fprintf(&buf, "// Code generated by compat/hpack/xnettest; DO NOT EDIT.\n\npackage %s_test\n", dropInName)
		if usedShims["huffmanDecode"] {
			fmt.Fprintf(&buf, "\n%s\n", huffmanDecodeImports)
		}
		for _, name := range slices.Sorted(maps.Keys(usedShims)) {
			fmt.Fprintf(&buf, "\n%s\n", shims[name])
			res.Shims = append(res.Shims, name)
		}
		src, err := format.Source(buf.Bytes())
		if err != nil {
			return nil, fmt.Errorf("shims do not parse: %v\n%s", err, buf.Bytes())
		}
		res.Files["shims_test.go"] = src
	}
	for name := range skips {
		if _, ok := res.Skipped[name]; !ok {
			return nil, fmt.Errorf("skip list names %s, which is not a ported test", name)
		}
	}
	sort.Strings(res.Ported)
	sort.Strings(res.Helpers)
	sort.Slice(res.Dropped, func(i, j int) bool { return res.Dropped[i].Name < res.Dropped[j].Name })
	return res, nil
}

// describe names an unexported object of x/net's package for a drop reason.
func describe(obj types.Object, packageLevel bool, fieldOwner map[*types.Var]string) string {
	if packageLevel {
		return obj.Name()
	}
	switch obj := obj.(type) {
	case *types.Func:
		if recv := obj.Signature().Recv(); recv != nil {
			return fmt.Sprintf("method %s.%s", typeName(recv.Type()), obj.Name())
		}
	case *types.Var:
		if owner, ok := fieldOwner[obj]; ok {
			return "field " + owner + "." + obj.Name()
		}
	}
	return obj.Name()
}

func typeName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok {
		return n.Obj().Name()
	}
	return t.String()
}

// isTestFunc reports whether fd is a test, benchmark, fuzz target or example.
func isTestFunc(fd *ast.FuncDecl) bool {
	if fd.Recv != nil {
		return false
	}
	for _, p := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
		if strings.HasPrefix(fd.Name.Name, p) {
			return true
		}
	}
	return false
}

// insertSkip makes fd's body start with a call of Skip with reason.
func insertSkip(fd *ast.FuncDecl, reason string) error {
	params := fd.Type.Params.List
	if len(params) != 1 || len(params[0].Names) != 1 {
		return fmt.Errorf("cannot skip %s: want one named parameter", fd.Name.Name)
	}
	call, err := parser.ParseExpr(fmt.Sprintf("%s.Skip(%q)", params[0].Names[0].Name, reason))
	if err != nil {
		return err
	}
	fd.Body.List = append([]ast.Stmt{&ast.ExprStmt{X: call}}, fd.Body.List...)
	return nil
}
