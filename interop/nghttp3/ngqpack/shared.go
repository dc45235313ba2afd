package ngqpack

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
)

// SharedSkipMessage is what a test says when it skips for want of the
// shared corpus folder.
const SharedSkipMessage = "skipping: ../shared is not beside the checkout; it holds the QPACK offline-interop corpus (qifs)"

// rootModule is the module path of the repository's root go.mod.
const rootModule = "github.com/metapack/metapack"

// SharedDir returns the shared corpus folder: shared beside the checkout,
// the checkout being the nearest directory above the working directory
// whose go.mod is the repository's root module. It returns false when
// there is none.
func SharedDir() (string, bool) {
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		if isRoot(filepath.Join(dir, "go.mod")) {
			shared := filepath.Join(filepath.Dir(dir), "shared")
			if fi, err := os.Stat(shared); err == nil && fi.IsDir() {
				return shared, true
			}
			return "", false
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

func isRoot(gomod string) bool {
	f, err := os.Open(gomod)
	if err != nil {
		return false
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if mod, ok := strings.CutPrefix(strings.TrimSpace(s.Text()), "module "); ok {
			return strings.TrimSpace(mod) == rootModule
		}
	}
	return false
}

// Skipper is the part of testing.TB that Shared needs.
type Skipper interface {
	Helper()
	Skip(args ...any)
}

// Shared returns the path elems under the shared folder, or skips tb with
// SharedSkipMessage when the folder or the path is missing.
func Shared(tb Skipper, elems ...string) string {
	tb.Helper()
	dir, ok := SharedDir()
	if !ok {
		tb.Skip(SharedSkipMessage)
	}
	p := filepath.Join(append([]string{dir}, elems...)...)
	if _, err := os.Stat(p); err != nil {
		tb.Skip(SharedSkipMessage + ": " + err.Error())
	}
	return p
}
