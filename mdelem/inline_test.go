package mdelem

import (
	"testing"

	"github.com/metapack/metapack/internal/inlinecheck"
)

// TestInlining proves the generic constructor stays within the inliner's
// budget: only where From is inlined does Go fold its kind switches away.
// Call sites inline the shaped body, From[go.shape...], with the caller's
// dictionary, so that is what must stay inlinable (the per-type wrappers,
// which add the dictionary argument to its cost, are not what gets inlined).
func TestInlining(t *testing.T) {
	inlinecheck.CheckPrefix(t, ".", "From[go.shape.")
	inlinecheck.CheckPrefix(t, ".", "StrOf[go.shape.")
	inlinecheck.Check(t, ".", "Str.Atom", "Str.Len", "Str.UnsafeBytes", "Str.UnsafeString", "(*Batch).Get", "(*Batch).index", "BorrowString", "stringAt", "stringBytes", "sliceAt")
}
