package intern

import (
	"testing"

	"github.com/metapack/metapack/internal/inlinecheck"
)

func TestInlining(t *testing.T) {
	inlinecheck.Check(t, ".", "Make[string]", "Make[[]uint8]", "Handle.Atom")
}
