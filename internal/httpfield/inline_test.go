package httpfield

import (
	"testing"

	"github.com/metapack/metapack/internal/inlinecheck"
)

// TestInlining checks that the per-field rules stay inlinable into the
// adapters' loops, as they were in the adapters themselves.
func TestInlining(t *testing.T) {
	inlinecheck.Check(t, ".", "ValidName", "validBytes", "upperIn", "PseudoOf",
		"(*Section).Order", "(*Section).Kind", "(*Section).Pseudo", "(*Section).Mixed")
	inlinecheck.CheckPrefix(t, ".", "Outside[", "ConnectionSpecific[")
}
