package story

import (
	"os"
	"path/filepath"
)

// SkipMessage is what every test says when it skips for want of the shared
// folder: one message, so that a newcomer sees at once why and what to do.
const SkipMessage = "skipping: ../shared is not beside the checkout; it holds the HPACK interop corpus " +
	"(github.com/http2jp/hpack-test-case: its stories and raw-data/ go in ../shared/hpack-test-case), " +
	"the RFC 7541 data (../shared/rfc7541) and the QPACK offline-interop corpus (github.com/qpackers/qifs, " +
	"in ../shared/qifs, or $QIFS); once it is there, run go test -count=1, as Go's test cache " +
	"does not notice files outside the module"

// Skipper is the part of testing.TB that Shared uses; taking it instead of
// testing.TB keeps package testing out of the CLI, which uses this package.
type Skipper interface {
	Helper()
	Skip(args ...any)
}

// Shared returns the file or directory at the path elems below the shared
// folder (see SharedDir), or skips tb with SkipMessage when the shared
// folder, or that path in it, is absent.
func Shared(tb Skipper, elems ...string) string {
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
