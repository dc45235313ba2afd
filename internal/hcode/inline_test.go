package hcode

import (
	"testing"

	"github.com/metapack/metapack/internal/inlinecheck"
)

func TestInlining(t *testing.T) {
	inlinecheck.Check(t, ".", "EncodedLen", "IntLen", "decodeLong", "putCode", "ReadShortString")
}
