package hpack

import (
	"errors"
	"testing"

	"github.com/metapack/metapack/mdelem"
)

// TestLimitsChangedMidBlock checks that a limit set between two fragments
// of a block counts at once, and that a block that went over a limit
// stays over it when the limit is raised later in the block.
func TestLimitsChangedMidBlock(t *testing.T) {
	frag := []byte{0x82, 0x82, 0x82} // three times :method: GET
	tests := []struct {
		name          string
		before, after func(d *Decoder) // limits set before each fragment
		wantErr       error
		wantOff       int
		wantFields    int // -1: not checked
	}{
		{
			name:       "lowered mid-block",
			before:     func(d *Decoder) {},
			after:      func(d *Decoder) { d.SetMaxFields(4) }, // 3 fields so far; one more fits
			wantErr:    ErrFieldCount,
			wantOff:    4,
			wantFields: 4,
		},
		{
			name:       "raised after going over",
			before:     func(d *Decoder) { d.SetMaxFields(2) },
			after:      func(d *Decoder) { d.SetMaxFields(100) },
			wantErr:    ErrFieldCount,
			wantOff:    2,
			wantFields: 2,
		},
		{
			name:   "list size lowered mid-block",
			before: func(d *Decoder) {},
			// :method GET is 42 bytes in RFC 9113 terms
			after:      func(d *Decoder) { d.SetMaxHeaderListSize(3*42 + 41) },
			wantErr:    ErrHeaderListSize,
			wantOff:    3,
			wantFields: -1,
		},
	}
	batch := mdelem.NewBatch(16, 256)
	for _, tc := range tests {
		batch.Reset()
		d := NewDecoder(DefaultTableSize)
		tc.before(d)
		if err := d.DecodeFragment(batch, frag, false); err != nil {
			t.Fatalf("%s: first fragment: %v", tc.name, err)
		}
		tc.after(d)
		err := d.DecodeFragment(batch, frag, true)
		var le *DecodingError
		if !errors.As(err, &le) || !errors.Is(err, tc.wantErr) || le.Offset != tc.wantOff {
			t.Fatalf("%s: error %v, want %v at byte %d", tc.name, err, tc.wantErr, tc.wantOff)
		}
		if tc.wantFields >= 0 && batch.Len() != tc.wantFields {
			t.Fatalf("%s: %d fields, want %d", tc.name, batch.Len(), tc.wantFields)
		}
	}
}
