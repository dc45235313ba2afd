package story

import (
	"os"
	"path/filepath"
	"testing"
)

// SkipMessage is what every test says when it skips for want of the shared
// folder: one message, so that a newcomer sees at once why and what to do.
const SkipMessage = "skipping: ../shared is not beside the checkout; it holds the HPACK interop corpus " +
	"(github.com/http2jp/hpack-test-case: its stories and raw-data/ go in ../shared/hpack-test-case) " +
	"and the RFC 7541 data (../shared/rfc7541)"

// Shared returns the file or directory at the path elems below the shared
// folder (see SharedDir), or skips tb with SkipMessage when the shared
// folder, or that path in it, is absent.
func Shared(tb testing.TB, elems ...string) string {
	tb.Helper()
	dir, ok := SharedDir()
	if !ok {
		tb.Skip(SkipMessage)
	}
	p := filepath.Join(append([]string{dir}, elems...)...)
	if _, err := os.Stat(p); err != nil {
		tb.Skip(SkipMessage + ": " + err.Error())
	}
	return p
}
