package hpack

import (
	"testing"

	"github.com/metapack/metapack/internal/inlinecheck"
)

func TestInlining(t *testing.T) {
	inlinecheck.Check(t, ".", "AppendHuffmanDecode", "(*Decoder).admit", "(*Decoder).indexedEntry")
}
