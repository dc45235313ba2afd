package mdelem

import (
	"testing"

	"github.com/metapack/metapack/internal/inlinecheck"
)

// TestInlining proves the generic constructor stays within the inliner's
// budget: only where From is inlined does Go fold its kind switches away.
func TestInlining(t *testing.T) {
	inlinecheck.CheckPrefix(t, ".", "From[", "kindOf[")
	inlinecheck.Check(t, ".", "Str.Atom", "Str.Len", "Str.Bytes", "Str.UnsafeString", "(*Batch).Get", "(*Batch).Value", "StrAtom", "BorrowString")
}
