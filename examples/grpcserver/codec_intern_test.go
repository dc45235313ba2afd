package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/metapack/metapack/mdelem"
	xhpack "golang.org/x/net/http2/hpack"
)

// TestMetapackCodecInternsNames: the metapack codec's decoder interns the
// client's custom names in its connection's table, so that the request's
// names and the echoed ones are atoms, until the table is full; past
// that, and for names over its length limit, the names are copied, and
// the requests are served and echoed the same.
func TestMetapackCodecInternsNames(t *testing.T) {
	long := "x-echo-" + strings.Repeat("n", nameInternLimits.MaxLen)
	tests := []struct {
		name   string
		fields int    // distinct x-echo-* names sent before the checked one
		echo   string // the checked name
		atom   bool   // whether it must come out as an atom
	}{
		{"first name", 0, "x-echo-a", true},
		{"within the table", nameInternLimits.MaxEntries / 2, "x-echo-a", true},
		{"table full", nameInternLimits.MaxEntries, "x-echo-late", false},
		{"name over MaxLen", 0, long, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newMetapackCodec(codecLimits{1 << 12, 4 << 20, 64})
			br := newBlockReader(c, 1<<20)
			var buf bytes.Buffer
			enc := xhpack.NewEncoder(&buf)
			enc.SetMaxDynamicTableSizeLimit(0) // every name goes as a literal
			respDec := xhpack.NewDecoder(4096, nil)
			var fields []xhpack.HeaderField
			fields = append(fields, loadtestRequest[:4]...)
			for i := range tt.fields {
				fields = append(fields, xhpack.HeaderField{Name: fmt.Sprintf("x-echo-f%d", i), Value: "v"})
			}
			fields = append(fields, xhpack.HeaderField{Name: tt.echo, Value: "checked"})
			for round := range 2 { // the second request finds the names interned
				buf.Reset()
				for _, f := range fields {
					if err := enc.WriteField(f); err != nil {
						t.Fatal(err)
					}
				}
				if err := br.read(c, buf.Bytes()); err != nil {
					t.Fatal(err)
				}
				h, _, err := c.takeRequest()
				if err != nil {
					t.Fatal(err)
				}
				req := h.(*mdelem.Batch)
				f, ok := req.GetString(tt.echo)
				if !ok {
					t.Fatalf("round %d: %q not decoded", round, tt.echo)
				}
				if got := f.Name.Atom() != nil; got != tt.atom {
					t.Errorf("round %d: name %q is an atom: %v, want %v", round, tt.echo, got, tt.atom)
				}
				out := c.appendGRPCHeaders(nil, h, -1, "")
				c.releaseRequest(h)
				got, err := respDec.DecodeFull(out)
				if err != nil {
					t.Fatal(err)
				}
				if last := got[len(got)-1]; last.Name != tt.echo || last.Value != "checked" {
					t.Errorf("round %d: last response field %q: %q, want %q: %q", round, last.Name, last.Value, tt.echo, "checked")
				}
				if want := 2 + tt.fields + 1; len(got) != want {
					t.Errorf("round %d: %d response fields, want %d", round, len(got), want)
				}
			}
		})
	}
}
