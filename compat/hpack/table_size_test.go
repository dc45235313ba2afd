package hpack_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	xhpack "golang.org/x/net/http2/hpack"

	compat "github.com/metapack/metapack/compat/hpack"
)

// tableSizeDecoder is what TestSetMaxDynamicTableSizeLikeXnet calls on
// x/net's Decoder and on the drop-in's.
type tableSizeDecoder interface {
	Write(p []byte) (int, error)
	Close() error
	SetMaxDynamicTableSize(v uint32)
	SetAllowedMaxDynamicTableSize(v uint32)
}

// TestSetMaxDynamicTableSizeLikeXnet runs the same calls on x/net's
// Decoder and the drop-in's and compares the fields and errors: between
// Writes and from the emit function SetMaxDynamicTableSize takes effect at
// once, and above the allowed maximum it leaves that maximum as it is.
func TestSetMaxDynamicTableSizeLikeXnet(t *testing.T) {
	big := strings.Repeat("v", 3000)
	lit := func(name, value string) string { // with incremental indexing
		return fmt.Sprintf("40 %02x %x 7f %x %x", len(name), name, hpackLen(len(value)), value)
	}
	type step struct {
		write      string // hex, or "close"
		max, allow uint32 // when non-zero
	}
	tests := []struct {
		name  string
		steps []step
		// emitMax, when non-zero, is set by the emit function at the
		// second field.
		emitMax uint32
	}{
		{name: "between Writes",
			steps: []step{{write: rfcC21}, {write: "close"}, {write: "be"}, {max: 1}, {write: "be"}, {write: "close"}}},
		{name: "between Writes, in a field",
			steps: []step{{write: rfcC21}, {write: "close"}, {write: "7e"}, {max: 1}, {write: "01 78"}, {write: "close"}}},
		{name: "between Writes, within the size",
			steps: []step{{write: rfcC21}, {write: "close"}, {write: "7e"}, {max: 100}, {write: "01 78"}, {write: "be"}, {write: "close"}, {write: "be bf"}, {write: "close"}}},
		{name: "from the emit function", emitMax: 1,
			steps: []step{{write: rfcC21}, {write: "close"}, {write: "be be"}, {write: "close"}}},
		{name: "above the allowed maximum, the peer's update",
			steps: []step{{max: 8192}, {write: "3f e1 3f 82"}, {write: "close"}}},
		{name: "above the allowed maximum, the table",
			steps: []step{{max: 8192}, {write: lit("x", big) + lit("y", big) + "bf"}, {write: "close"}}},
		{name: "lowered bound, then the same size",
			steps: []step{{write: rfcC21}, {write: "close"}, {allow: 100}, {max: 100}, {write: "be"}, {write: "close"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := func(newDecoder func(emit func(xhpack.HeaderField)) tableSizeDecoder) []string {
				var log []string
				var d tableSizeDecoder
				d = newDecoder(func(f xhpack.HeaderField) {
					log = append(log, f.Name+"="+f.Value[:min(len(f.Value), 8)])
					if tt.emitMax != 0 && len(log) == 2 {
						d.SetMaxDynamicTableSize(tt.emitMax)
					}
				})
				for _, s := range tt.steps {
					var err error
					switch {
					case s.max != 0:
						d.SetMaxDynamicTableSize(s.max)
					case s.allow != 0:
						d.SetAllowedMaxDynamicTableSize(s.allow)
					case s.write == "close":
						err = d.Close()
					default:
						_, err = d.Write(unhex(t, s.write))
					}
					if err != nil {
						return append(log, err.Error())
					}
				}
				return log
			}
			want := run(func(emit func(xhpack.HeaderField)) tableSizeDecoder { return xhpack.NewDecoder(4096, emit) })
			got := run(func(emit func(xhpack.HeaderField)) tableSizeDecoder { return compat.NewDecoder(4096, emit) })
			if !slices.Equal(got, want) {
				t.Errorf("drop-in: %q\nx/net:   %q", got, want)
			}
		})
	}
}

// hpackLen returns the bytes after the 7-bit prefix's 0x7f of a string
// length of n >= 127, as hex.
func hpackLen(n int) []byte {
	var b []byte
	for n -= 127; n >= 0x80; n >>= 7 {
		b = append(b, byte(n)|0x80)
	}
	return append(b, byte(n))
}
