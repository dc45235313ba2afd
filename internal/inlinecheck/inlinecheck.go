// Package inlinecheck lets a test prove that hot functions stay inlinable:
// it builds a package with -gcflags=-m=2 and reads the compiler's verdicts.
package inlinecheck

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// Check builds the package at dir (relative to the test's folder) and fails
// t for each named function the compiler reports it cannot inline, or does
// not mention. Names are as the compiler prints them: "F", "T.M", "(*T).M".
func Check(t *testing.T, dir string, funcs ...string) {
	t.Helper()
	verdict := verdicts(t, dir)
	for _, f := range funcs {
		v, ok := verdict[f]
		switch {
		case !ok:
			t.Errorf("%s: the compiler did not report on it (renamed?)", f)
		case !strings.HasPrefix(v, "can inline"):
			t.Errorf("%s is no longer inlinable: %s", f, v)
		}
	}
}

// verdicts builds dir's package and its tests with -gcflags=-m=2 and
// returns the compiler's first inlining verdict for each function it
// mentions. The tests are built too so that generic functions are
// instantiated with every shape the tests use, not only the package's own.
func verdicts(t *testing.T, dir string) map[string]string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the compiler; skipped with -short")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH")
	}
	cmd := exec.Command(goTool, "test", "-c", "-o", os.DevNull, "-gcflags=-m=2", ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test -c -gcflags=-m=2: %v\n%s", err, out)
	}
	verdict := map[string]string{}
	re := regexp.MustCompile(`^\S+\.go:\d+:\d+: (can inline|cannot inline) ([^:\s]+)(.*)$`)
	for _, line := range strings.Split(string(out), "\n") {
		if m := re.FindStringSubmatch(line); m != nil {
			if _, seen := verdict[m[2]]; !seen {
				verdict[m[2]] = m[1] + m[3]
			}
		}
	}
	return verdict
}

// CheckPrefix is Check for every function whose name starts with prefix,
// such as "From[" for all shapes of a generic function. It fails when the
// compiler reports none.
func CheckPrefix(t *testing.T, dir string, prefixes ...string) {
	t.Helper()
	verdict := verdicts(t, dir)
	for _, p := range prefixes {
		found := false
		for f, v := range verdict {
			if !strings.HasPrefix(f, p) {
				continue
			}
			found = true
			if !strings.HasPrefix(v, "can inline") {
				t.Errorf("%s is no longer inlinable: %s", f, v)
			}
		}
		if !found {
			t.Errorf("%s...: the compiler reported no such function", p)
		}
	}
}
