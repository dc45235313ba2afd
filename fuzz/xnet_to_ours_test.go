package fuzz

import (
	"bytes"
	"strings"
	"testing"

	"github.com/metapack/metapack/mdelem"
	xhpack "golang.org/x/net/http2/hpack"
)

// parseHeaders turns the fuzzer's text into header lists: "name: value"
// lines, with a blank line between lists.
func parseHeaders(s string) [][]xhpack.HeaderField {
	var lists [][]xhpack.HeaderField
	var cur []xhpack.HeaderField
	for _, line := range strings.Split(s, "\n") {
		if line == "" {
			if len(cur) > 0 {
				lists = append(lists, cur)
				cur = nil
			}
			continue
		}
		name, value, _ := strings.Cut(line, ": ")
		cur = append(cur, xhpack.HeaderField{Name: name, Value: value, Sensitive: strings.HasPrefix(name, "s")})
	}
	if len(cur) > 0 {
		lists = append(lists, cur)
	}
	return lists
}

// FuzzXnetToOurs encodes the fuzzer's header lists with x/net's encoder,
// changing the table size between lists as sizes says, and decodes them
// with ours.
func FuzzXnetToOurs(f *testing.F) {
	f.Add(":method: GET\n:path: /\n\nx-a: b\n", byte(1))
	f.Fuzz(func(t *testing.T, text string, sizes byte) {
		var buf bytes.Buffer
		enc := xhpack.NewEncoder(&buf)
		dec := newOurDecoder(4096)
		batch := mdelem.NewBatch(0, 0)
		for i, list := range parseHeaders(text) {
			if i > 0 && sizes&(1<<(i%8)) != 0 {
				size := tableSizes[(int(sizes)+i)%len(tableSizes)]
				dec.SetAllowedMaxDynamicTableSize(size)
				enc.SetMaxDynamicTableSizeLimit(size)
				enc.SetMaxDynamicTableSize(size)
			}
			buf.Reset()
			for _, hf := range list {
				if err := enc.WriteField(hf); err != nil {
					t.Fatal(err)
				}
			}
			batch.Reset()
			if err := dec.Decode(batch, buf.Bytes()); err != nil {
				t.Fatalf("list %d %v: block %x: %v", i, list, buf.Bytes(), err)
			}
			if got, want := fromBatch(batch), fromXnet(list); !equalFields(got, want) {
				t.Fatalf("list %d: got %v, want %v", i, got, want)
			}
		}
	})
}
