package xnettest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// childBuildFlags are added to the go test command of the ported tests:
// the build tags this test was built with (see purego_test.go).
var childBuildFlags []string

// TestXnetPortedTests ports x/net's hpack tests to the drop-in (see the
// package doc) and runs them in a module of their own in a temporary
// directory.
func TestXnetPortedTests(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("skipping: the go tool is not available to run x/net's ported tests:", err)
	}
	root, err := goOutput(t, goTool, ".", "env", "GOMOD")
	if err != nil || root == "" || root == os.DevNull {
		t.Fatalf("go env GOMOD = %q, %v; want metapack's go.mod", root, err)
	}
	root = filepath.Dir(root)

	mod, err := goOutput(t, goTool, root, "list", "-m", "-f", "{{.Version}}\t{{.Dir}}", "golang.org/x/net")
	version, dir, _ := strings.Cut(mod, "\t")
	if err != nil || version == "" || dir == "" {
		t.Skipf("skipping: x/net's source is not in the module cache (go list -m golang.org/x/net: %q, %v); run go mod download golang.org/x/net", mod, err)
	}
	src := filepath.Join(dir, "http2", "hpack")
	for _, f := range xnetTestFiles {
		if _, err := os.Stat(filepath.Join(src, f)); err != nil {
			t.Skipf("skipping: x/net %s has no %s to port: %v", version, f, err)
		}
	}

	res, err := portXnetTests(src, xnetTestFiles, skipList)
	if err != nil {
		t.Fatalf("porting x/net %s's hpack tests: %v", version, err)
	}
	logPort(t, version, res)
	if len(res.Ported) == 0 {
		t.Fatal("no test of x/net's could be ported")
	}

	tmp := t.TempDir()
	if keep := os.Getenv("XNETTEST_KEEP"); keep != "" {
		tmp = keep
		if err := os.MkdirAll(tmp, 0o755); err != nil {
			t.Fatal(err)
		}
		t.Logf("keeping the ported module in %s", tmp)
	}
	for name, b := range res.Files {
		if err := os.WriteFile(filepath.Join(tmp, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	goMod := fmt.Sprintf(`module metapack.test/xnetported

go 1.26.0

require (
	github.com/metapack/metapack v0.0.0
	golang.org/x/net %s
)

replace github.com/metapack/metapack => %s
`, version, root)
	if err := os.WriteFile(filepath.Join(tmp, "go.mod"), []byte(goMod), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}

	// -bench with -benchtime=1x runs each ported benchmark once: they check
	// their output too.
	args := append([]string{"test", "-count=1", "-v", "-bench=.", "-benchtime=1x"}, childBuildFlags...)
	if testing.Short() {
		args = append(args, "-short")
	}
	args = append(args, "./...")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, goTool, args...)
	cmd.Dir = tmp
	cmd.Env = childEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("x/net %s's ported tests fail against %s (go %s in %s): %v\n%s",
			version, dropInPath, strings.Join(args, " "), tmp, err, out)
	}
	t.Logf("x/net %s's ported tests pass against %s (go %s):\n%s", version, dropInPath, strings.Join(args, " "), summary(out))
}

// goOutput runs the go tool in dir and returns its trimmed standard output.
func goOutput(t *testing.T, goTool, dir string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(goTool, args...)
	cmd.Dir = dir
	cmd.Env = childEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return strings.TrimSpace(string(out)), fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

// childEnv is the environment of the go commands the test runs: its own,
// with -mod=mod added to GOFLAGS (the ported module's go.mod lists only
// its direct requirements) and no workspace.
func childEnv() []string {
	var env []string
	flags := "-mod=mod"
	for _, kv := range os.Environ() {
		switch {
		case strings.HasPrefix(kv, "GOFLAGS="):
			if f := strings.TrimPrefix(kv, "GOFLAGS="); f != "" {
				flags = f + " " + flags
			}
		case strings.HasPrefix(kv, "GOWORK="):
		default:
			env = append(env, kv)
		}
	}
	return append(env, "GOFLAGS="+flags, "GOWORK=off")
}

func logPort(t *testing.T, version string, res *portResult) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "x/net %s: %d tests and benchmarks ported, %d declarations dropped\n", version, len(res.Ported), len(res.Dropped))
	fmt.Fprintf(&b, "ported: %s\n", strings.Join(res.Ported, " "))
	fmt.Fprintf(&b, "helpers kept: %s\n", strings.Join(res.Helpers, ", "))
	fmt.Fprintf(&b, "shims used: %s\n", strings.Join(res.Shims, ", "))
	var skipped []string
	for name := range res.Skipped {
		skipped = append(skipped, name)
	}
	sort.Strings(skipped)
	for _, name := range skipped {
		fmt.Fprintf(&b, "skipped %s: %s\n", name, res.Skipped[name])
	}
	for _, d := range res.Dropped {
		fmt.Fprintf(&b, "dropped %s (%s): %s\n", d.Name, d.File, d.Reason)
	}
	t.Log(b.String())
}

// summary keeps the result lines of go test -v output, with the
// messages of skipped tests.
func summary(out []byte) string {
	var b strings.Builder
	inSkip := false
	for _, l := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(l, "--- "):
			inSkip = strings.HasPrefix(l, "--- SKIP")
		case inSkip && strings.HasPrefix(l, "    "):
		case strings.HasPrefix(l, "Benchmark"), strings.HasPrefix(l, "ok"),
			strings.HasPrefix(l, "PASS"), strings.HasPrefix(l, "FAIL"):
			inSkip = false
		default:
			inSkip = false
			continue
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}
