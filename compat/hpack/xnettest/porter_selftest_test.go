package xnettest

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPorter checks the porter on a small package of its own, so that a
// change in x/net's tests cannot hide a fault of the rewrite: qualification,
// transitive dropping, methods on the package's types, imports and skips.
func TestPorter(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("lib.go", `package hpack

type HeaderField struct{ Name, Value string }

type Decoder struct{ n int }

func NewDecoder() *Decoder { return &Decoder{} }

func (d *Decoder) Len() int { return d.n }

var staticTable = []HeaderField{{"a", "b"}}

const Exported = 1
`)
	write("ignored.go", "//go:build ignore\n\npackage main\n\nfunc main() {}\n")
	write("x_test.go", `package hpack

import (
	"fmt"
	"strings"
	"testing"
)

func (d *Decoder) peek() int { return d.n }

func helper() HeaderField { return staticTable[0] }

func viaHelper(t *testing.T) { _ = fmt.Sprint(helper()) }

// TestDropped uses an unexported name through two helpers.
func TestDropped(t *testing.T) { viaHelper(t) }

func TestMethod(t *testing.T) { _ = NewDecoder().peek() }

func TestField(t *testing.T) { _ = NewDecoder().n }

func pair(n, v string) HeaderField { return HeaderField{Name: n, Value: v} }

// TestKept uses only exported names.
func TestKept(t *testing.T) {
	var d *Decoder = NewDecoder()
	if d.Len() != Exported-1 || pair("a", "b").Name != "a" {
		t.Fatal(strings.Repeat("x", 1))
	}
}

func TestSkipped(tb *testing.T) { tb.Fatal("should be skipped") }
`)
	res, err := portXnetTests(dir, []string{"x_test.go"}, map[string]string{"TestSkipped": "why not"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(res.Ported, " "), "TestKept TestSkipped"; got != want {
		t.Errorf("ported %q; want %q", got, want)
	}
	if got, want := strings.Join(res.Helpers, " "), "pair"; got != want {
		t.Errorf("helpers %q; want %q", got, want)
	}
	wantDropped := map[string]string{
		"(*Decoder).peek": "is a method of x/net's type Decoder",
		"helper":          "uses unexported staticTable",
		"viaHelper":       "uses dropped helper",
		"TestDropped":     "uses dropped viaHelper",
		"TestMethod":      "uses dropped (*Decoder).peek",
		"TestField":       "uses unexported field Decoder.n",
	}
	if len(res.Dropped) != len(wantDropped) {
		t.Errorf("dropped %+v; want %d", res.Dropped, len(wantDropped))
	}
	for _, d := range res.Dropped {
		if want, ok := wantDropped[d.Name]; !ok || !strings.HasPrefix(d.Reason, want) {
			t.Errorf("dropped %s: %q; want a reason starting %q", d.Name, d.Reason, want)
		}
	}
	src := string(res.Files["x_test.go"])
	for _, want := range []string{
		"package hpack_test",
		`"github.com/metapack/metapack/compat/hpack"`,
		"var d *hpack.Decoder = hpack.NewDecoder()",
		"d.Len() != hpack.Exported-1",
		"hpack.HeaderField{Name: n, Value: v}",
		"func TestSkipped(tb *testing.T) {\n\ttb.Skip(\"why not\")",
		"// TestKept uses only exported names.",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("ported source lacks %q:\n%s", want, src)
		}
	}
	for _, gone := range []string{"staticTable", "peek", "TestDropped", `"fmt"`, "two helpers"} {
		if strings.Contains(src, gone) {
			t.Errorf("ported source still has %q:\n%s", gone, src)
		}
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "x_test.go", src, 0); err != nil {
		t.Errorf("ported source does not parse: %v", err)
	}
	if _, err := portXnetTests(dir, []string{"x_test.go"}, map[string]string{"TestDropped": "x"}); err == nil {
		t.Error("a skip of a dropped test was accepted")
	}
}
