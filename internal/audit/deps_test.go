package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// modulePath is the import path of this module.
const modulePath = "github.com/metapack/metapack"

// depRule says what one package of the module may import, by path
// relative to the module root. Every package it depends on, directly or
// not, must be allowed: a module package in allow or under internal/ (when
// internal is set), or, when stdOnly is clear, a package of another module.
// A module package in deny is refused even where the rest would allow it.
// With stdOnly set, the package's own imports are all from the standard
// library or the module.
type depRule struct {
	pkg      string
	allow    []string // module packages it may depend on; nil: any not denied
	internal bool     // whether it may depend on the module's internal/ packages
	stdOnly  bool     // whether its own imports outside the module are standard only
	deny     []string // module packages or trees (ending in "/") it must not depend on
}

// depRules layer the codec: staticdata at the bottom, intern on it, mdelem
// on both, grpcmeta on mdelem, and hpack below the drop-in, the CLI and
// grpcmeta, which build on it.
var depRules = []depRule{
	{pkg: "staticdata", allow: []string{}, internal: true},
	{pkg: "intern", allow: []string{"staticdata"}, internal: true},
	{pkg: "mdelem", allow: []string{"intern", "staticdata"}, internal: true, stdOnly: true},
	{pkg: "grpcmeta", allow: []string{"mdelem", "intern", "staticdata"}, internal: true, stdOnly: true},
	{pkg: "hpack", deny: []string{"compat/", "cmd/", "grpcmeta"}, internal: true},
}

// listedPackage is what go list -json tells of one package.
type listedPackage struct {
	ImportPath string
	Standard   bool
	Imports    []string
	Error      *struct{ Err string }
}

// listDeps runs go list -deps over the rules' packages with the build tags
// tags and returns every package of the dependency graph by import path.
func listDeps(t *testing.T, tags string) map[string]*listedPackage {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH")
	}
	args := []string{"list", "-e", "-deps", "-json=ImportPath,Standard,Imports,Error", "-tags", tags}
	for _, r := range depRules {
		args = append(args, "./"+r.pkg)
	}
	cmd := exec.Command(goTool, args...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	pkgs := map[string]*listedPackage{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		p := new(listedPackage)
		if err := dec.Decode(p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		pkgs[p.ImportPath] = p
	}
	return pkgs
}

// checkDeps returns the rule's violations in the graph pkgs: one line per
// package it must not depend on, with the chain of imports that reaches it.
func checkDeps(r depRule, pkgs map[string]*listedPackage) []string {
	top := modulePath + "/" + r.pkg
	p := pkgs[top]
	if p == nil {
		p = pkgs["./"+r.pkg] // how go list -e names a folder it did not find
	}
	if p == nil {
		return []string{"go list did not list " + top}
	}
	if p.Error != nil {
		return []string{top + ": " + p.Error.Err}
	}
	var bad []string
	if r.stdOnly {
		for _, imp := range p.Imports {
			if q := pkgs[imp]; q != nil && !q.Standard && !strings.HasPrefix(imp, modulePath+"/") {
				bad = append(bad, top+" imports "+imp+", which is neither standard nor this module's")
			}
		}
	}
	// A walk of the graph from top, keeping the path that reached each
	// package, so that a violation names the imports that bring it in.
	via := map[string]string{top: ""}
	queue := []string{top}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		q := pkgs[cur]
		if q == nil {
			continue
		}
		for _, imp := range q.Imports {
			if _, seen := via[imp]; seen {
				continue
			}
			via[imp] = cur
			queue = append(queue, imp)
			if why := r.refuses(imp); why != "" {
				bad = append(bad, top+" depends on "+imp+" ("+why+"): "+chain(via, imp))
			}
		}
	}
	slices.Sort(bad)
	return bad
}

// refuses returns why the rule refuses a dependency on the package imp, or
// "" when it allows it.
func (r depRule) refuses(imp string) string {
	rel, ok := strings.CutPrefix(imp, modulePath+"/")
	if !ok {
		return "" // the standard library or another module: see stdOnly
	}
	for _, d := range r.deny {
		if rel == d || strings.HasSuffix(d, "/") && strings.HasPrefix(rel, d) {
			return "denied"
		}
	}
	if r.allow == nil {
		return ""
	}
	if r.internal && strings.HasPrefix(rel, "internal/") || slices.Contains(r.allow, rel) {
		return ""
	}
	return "not allowed"
}

// chain returns the import path from the walk's root to p.
func chain(via map[string]string, p string) string {
	path := []string{p}
	for q := via[p]; q != ""; q = via[q] {
		path = append(path, q)
	}
	slices.Reverse(path)
	return strings.Join(path, " -> ")
}

// TestDependencyLayers checks the module's import graph against depRules,
// in both builds.
func TestDependencyLayers(t *testing.T) {
	for _, tags := range []string{"", "purego"} {
		pkgs := listDeps(t, tags)
		for _, r := range depRules {
			for _, v := range checkDeps(r, pkgs) {
				t.Errorf("-tags %q: %s", tags, v)
			}
		}
	}
}

// TestDepRulesCatch checks checkDeps on a made-up graph, so that
// TestDependencyLayers cannot pass by finding nothing: each rule kind
// must report the dependency it forbids, with its chain.
func TestDepRulesCatch(t *testing.T) {
	m := func(rel string) string { return modulePath + "/" + rel }
	graph := map[string]*listedPackage{
		m("staticdata"):                {ImportPath: m("staticdata"), Imports: []string{"errors", m("internal/huffdata")}},
		m("internal/huffdata"):         {ImportPath: m("internal/huffdata")},
		m("mdelem"):                    {ImportPath: m("mdelem"), Imports: []string{"errors", "golang.org/x/net/http2/hpack", m("staticdata")}},
		"golang.org/x/net/http2/hpack": {ImportPath: "golang.org/x/net/http2/hpack"},
		"errors":                       {ImportPath: "errors", Standard: true},
		m("hpack"):                     {ImportPath: m("hpack"), Imports: []string{m("mdelem"), m("internal/x")}},
		m("internal/x"):                {ImportPath: m("internal/x"), Imports: []string{m("compat/hpack")}},
		m("compat/hpack"):              {ImportPath: m("compat/hpack")},
		m("intern"):                    {ImportPath: m("intern"), Imports: []string{m("mdelem")}},
	}
	tests := []struct {
		rule depRule
		want []string
	}{
		{depRule{pkg: "staticdata", allow: []string{}, internal: true}, nil},
		{depRule{pkg: "staticdata", allow: []string{}}, []string{
			m("staticdata") + " depends on " + m("internal/huffdata") + " (not allowed): " + m("staticdata") + " -> " + m("internal/huffdata"),
		}},
		{depRule{pkg: "mdelem", allow: []string{"staticdata"}, internal: true, stdOnly: true}, []string{
			m("mdelem") + " imports golang.org/x/net/http2/hpack, which is neither standard nor this module's",
		}},
		{depRule{pkg: "mdelem", allow: []string{"staticdata"}, internal: true}, nil},
		{depRule{pkg: "hpack", deny: []string{"compat/"}, internal: true}, []string{
			m("hpack") + " depends on " + m("compat/hpack") + " (denied): " + m("hpack") + " -> " + m("internal/x") + " -> " + m("compat/hpack"),
		}},
		{depRule{pkg: "intern", allow: []string{"staticdata"}, internal: true}, []string{
			m("intern") + " depends on " + m("mdelem") + " (not allowed): " + m("intern") + " -> " + m("mdelem"),
		}},
		{depRule{pkg: "grpcmeta"}, []string{"go list did not list " + m("grpcmeta")}},
	}
	for _, tt := range tests {
		if got := checkDeps(tt.rule, graph); !slices.Equal(got, tt.want) {
			t.Errorf("checkDeps(%+v) = %q, want %q", tt.rule, got, tt.want)
		}
	}
}

// TestNoTestingInProduction checks that no package a user builds links
// package testing, in both builds: test helpers shared by tests and the
// CLI (internal/story) take interfaces instead of testing.TB.
func TestNoTestingInProduction(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH")
	}
	for _, tags := range []string{"", "purego"} {
		cmd := exec.Command(goTool, "list", "-deps", "-tags", tags, "-f", "{{.ImportPath}}",
			"./cmd/metapack", "./compat/hpack", "./headerblock", "./grpcmeta", "./hpack", "./mdelem", "./intern", "./staticdata")
		cmd.Dir = root
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list: %v", err)
		}
		if slices.Contains(strings.Fields(string(out)), "testing") {
			t.Errorf("-tags %q: a production package depends on package testing", tags)
		}
	}
}
