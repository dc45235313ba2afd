package qpack

import (
	"testing"

	"github.com/metapack/metapack/internal/inlinecheck"
)

// The codecs call these once per field line or instruction.
func TestInlining(t *testing.T) {
	inlinecheck.Check(t, ".", "(*Decoder).entry", "(*Decoder).relative", "(*Decoder).valueInterned",
		"(*Decoder).requiredInserts", "(*Encoder).usable", "(*Encoder).present", "(*Encoder).hit",
		"(*sectionState).refer", "fieldSize")
}
