package ngqpack

import "github.com/metapack/metapack/internal/story"

// Shared returns the path elems under the shared corpus folder beside the
// repository, or skips tb with the repository's one skip message when the
// folder or the path is missing.
func Shared(tb story.Skipper, elems ...string) string {
	tb.Helper()
	return story.Shared(tb, elems...)
}
