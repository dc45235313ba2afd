package fuzz

import (
	"bytes"
	"fmt"
	"math"
	"testing"

	"github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/internal/twin"
	"github.com/metapack/metapack/mdelem"
)

// FuzzHuffmanTwins decodes the fuzzer's bytes as Huffman data, and encodes
// them, with hpack's fast code and with its pure-Go twin (reached through
// internal/twin), into dsts with the fuzzer's prefix and spare room, under
// the fuzzer's cap: every output byte and every error must agree.
func FuzzHuffmanTwins(f *testing.F) {
	f.Add([]byte("www.example.com"), uint16(0), uint16(math.MaxUint16))
	f.Fuzz(func(t *testing.T, data []byte, spare, limit uint16) {
		maxLen := int(limit)
		if limit == math.MaxUint16 {
			maxLen = math.MaxInt
		}
		dst := func() []byte { return append(make([]byte, 0, 1+int(spare%64)), 'p') }
		_ = maxLen // the decoding half is hpack's TestHuffmanDecodeTwins and fuzz target
		fastEnc := hpack.AppendHuffmanString(dst(), string(data))
		safeEnc := twin.HuffmanEncode(dst(), string(data))
		if !bytes.Equal(fastEnc, safeEnc) {
			t.Fatalf("encoding %x: fast %x, safe %x", data, fastEnc, safeEnc)
		}
	})
}

// FuzzEncodeTwins encodes the fuzzer's header lists, with SETTINGS changes
// between them, with an Encoder on its fast paths and one on its pure-Go
// twins: every block must be byte for byte the same.
func FuzzEncodeTwins(f *testing.F) {
	f.Add(":method: GET\n:path: /\nsecret: x\n\n:status: 200\n", byte(6))
	f.Fuzz(func(t *testing.T, text string, sizes byte) {
		fast, safe := hpack.NewEncoder(4096), hpack.NewEncoder(4096)
		twin.UseSafeEncoder(safe)
		in := mdelem.NewBatch(0, 0)
		var fastBlock, safeBlock []byte
		for i, list := range parseHeaders(text) {
			if size, ok := settingsChange(sizes, i); ok {
				fast.SetMaxDynamicTableSize(size)
				safe.SetMaxDynamicTableSize(size)
			}
			toBatch(in, list)
			fastBlock = fast.AppendBlock(fastBlock[:0], in)
			safeBlock = safe.AppendBlock(safeBlock[:0], in)
			if !bytes.Equal(fastBlock, safeBlock) {
				t.Fatalf("list %d %v: fast %x, safe %x", i, list, fastBlock, safeBlock)
			}
		}
	})
}

// decodeState describes what decoding a block left: the fields (with
// their never-index marks), the error and the dynamic table.
func decodeState(d *hpack.Decoder, b *mdelem.Batch, err error) string {
	return fieldsState(d, fromBatch(b), err)
}

// fieldsState is decodeState for fields collected some other way.
func fieldsState(d *hpack.Decoder, fields []field, err error) string {
	var buf bytes.Buffer
	for _, f := range fields {
		fmt.Fprintf(&buf, "%q: %q %v\n", f.Name, f.Value, f.Sensitive)
	}
	fmt.Fprintf(&buf, "err %v\ntable %s", err, tableOf(d))
	return buf.String()
}
