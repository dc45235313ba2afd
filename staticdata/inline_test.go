package staticdata

import (
	"testing"

	"github.com/metapack/metapack/internal/inlinecheck"
)

func TestInlining(t *testing.T) {
	inlinecheck.CheckPrefix(t, ".", "Lookup[")
}
