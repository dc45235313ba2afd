package qif

import (
	"os"
	"path/filepath"

	"github.com/metapack/metapack/internal/story"
)

// Env names the environment variable that, when set, gives the folder of
// the interop corpus (the github.com/qpackers/qifs checkout, holding qifs/
// and encoded/) instead of ../shared/qifs.
const Env = "QIFS"

// SkipMessage is what every test says when it skips for want of the QPACK
// interop corpus: the shared folder's one message.
const SkipMessage = story.SkipMessage

// Dir returns the folder of the interop corpus: $QIFS when set, or else
// the qifs folder of the shared folder beside the module root (see
// story.SharedDir). It returns false when that is not a directory.
func Dir() (string, bool) {
	dir := os.Getenv(Env)
	if dir == "" {
		shared, ok := story.SharedDir()
		if !ok {
			return "", false
		}
		dir = filepath.Join(shared, "qifs")
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "", false
	}
	return dir, true
}

// Path returns the file or directory at the path elems below the corpus's
// folder (see Dir), or skips tb with SkipMessage when the corpus, or that
// path in it, is absent.
func Path(tb story.Skipper, elems ...string) string {
	tb.Helper()
	dir, ok := Dir()
	if !ok {
		tb.Skip(SkipMessage)
	}
	p := filepath.Join(append([]string{dir}, elems...)...)
	if _, err := os.Stat(p); err != nil {
		tb.Skip(SkipMessage + ": " + err.Error())
	}
	return p
}
