package indexpolicy

import (
	"testing"

	"github.com/metapack/metapack/internal/inlinecheck"
)

// The encoders call these once per field.
func TestInlining(t *testing.T) {
	inlinecheck.Check(t, ".", "StrHash", "fold", "HashTag", "NeverIndexed",
		"(*seenFilter).seen", "(*nameScores).fresh", "(*nameScores).repeat", "(*Policy).Repeat", "IndexesCredential")
}
