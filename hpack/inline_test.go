package hpack

import (
	"testing"

	"github.com/metapack/metapack/internal/inlinecheck"
)

func TestInlining(t *testing.T) {
	inlinecheck.Check(t, ".", "AppendHuffmanDecode", "HuffmanEncodeLength", "decodeLong", "putCode",
		"(*Decoder).readString", "(*Decoder).admit", "(*dynTable).at", "(*byteRing).place")
}
