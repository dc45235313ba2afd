package intern

import (
	"testing"

	"github.com/metapack/metapack/internal/inlinecheck"
)

func TestInlining(t *testing.T) {
	inlinecheck.Check(t, ".", "(*Table).Make", "(*Table).MakeString", "(*Table).Lookup", "(*Table).LookupString", "Static", "StaticString")
	inlinecheck.CheckPrefix(t, ".", "equal[")
}
