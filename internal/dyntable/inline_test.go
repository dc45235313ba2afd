package dyntable

import (
	"testing"

	"github.com/metapack/metapack/internal/inlinecheck"
)

// The decoders call these once per field.
func TestInlining(t *testing.T) {
	inlinecheck.Check(t, ".", "(*Table).At", "(*Table).push", "(*ByteRing).Place", "(*Table).Len", "(*Table).Size", "(*Table).Max")
}
