package hpack

import (
	"errors"
	"testing"

	"github.com/metapack/metapack/mdelem"
)

// TestBlockErr checks that BlockErr reports a limit from the fragment that
// reaches it, before the block ends, and nothing between blocks.
func TestBlockErr(t *testing.T) {
	cases := []struct {
		name  string
		setup func(d *Decoder)
		want  error
	}{
		{"string length", func(d *Decoder) { d.SetMaxStringLength(4) }, ErrStringLength},
		{"field count", func(d *Decoder) { d.SetMaxFields(1) }, ErrFieldCount},
		{"list size", func(d *Decoder) { d.SetMaxHeaderListSize(40) }, ErrHeaderListSize},
		{"no limit reached", func(d *Decoder) {}, nil},
	}
	first := literal(0x40, "k", "v", false)
	second := literal(0x40, "name", "value", false)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := NewDecoder(4096)
			c.setup(d)
			b := mdelem.NewBatch(4, 64)
			if err := d.BlockErr(); err != nil {
				t.Fatalf("BlockErr before any block = %v", err)
			}
			if err := d.DecodeFragment(b, first, false); err != nil || d.BlockErr() != nil {
				t.Fatalf("first fragment: %v, BlockErr %v", err, d.BlockErr())
			}
			if err := d.DecodeFragment(b, second, false); err != nil {
				t.Fatalf("second fragment: %v", err)
			}
			got := d.BlockErr()
			var le *DecodingError
			if c.want == nil && got != nil || c.want != nil && (!errors.As(got, &le) || le.Err != c.want) {
				t.Fatalf("BlockErr after the second fragment = %v, want %v", got, c.want)
			}
			end := d.DecodeFragment(b, nil, true)
			if !errors.Is(end, c.want) || (c.want == nil) != (end == nil) {
				t.Fatalf("last fragment = %v, want %v", end, c.want)
			}
			if err := d.BlockErr(); err != nil {
				t.Fatalf("BlockErr after the block = %v", err)
			}
		})
	}
}
