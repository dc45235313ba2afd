package hpack

import (
	"errors"
	"fmt"
	"github.com/metapack/metapack/internal/tier"
	"math"
	"strings"
	"testing"

	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// literalBlock returns a block of n literals without indexing, each with
// a new name of 4 bytes and a raw value of valueLen bytes.
func literalBlock(n, valueLen int) []byte {
	var b []byte
	value := strings.Repeat("v", valueLen)
	for i := range n {
		b = append(b, 0x00)
		b = appendInt(b, 0, 7, 4)
		b = append(b, fmt.Sprintf("x%03d", i%1000)...)
		b = appendInt(b, 0, 7, uint64(valueLen))
		b = append(b, value...)
	}
	return b
}

// TestLimitSetters checks what 0 and negative values mean for each limit
// setter: 0 is no limit (as x/net takes it for the string length), a
// negative value restores the default. None may panic.
func TestLimitSetters(t *testing.T) {
	for _, tc := range []struct {
		name   string
		set    func(d *Decoder)
		block  []byte
		limitd error // the LimitError's sentinel, or nil for success
	}{
		{"string length -1: no limit", func(d *Decoder) { d.SetMaxStringLength(-1); d.SetMaxHeaderListSize(-1) }, literalBlock(1, 100<<10), nil},
		{"string length 0: the default", func(d *Decoder) { d.SetMaxStringLength(0) }, literalBlock(1, 100), nil},
		{"string length min int: the default", func(d *Decoder) { d.SetMaxStringLength(math.MinInt) }, literalBlock(1, 100), nil},
		{"string length 0: the default, Huffman", func(d *Decoder) { d.SetMaxStringLength(0) }, literal(0x00, "x-a", "some value", true), nil},
		{"list size -1: no limit", func(d *Decoder) { d.SetMaxHeaderListSize(-1) }, literalBlock(20, 8000), nil},
		{"list size 0: the default", func(d *Decoder) { d.SetMaxHeaderListSize(0) }, literalBlock(20, 8000), ErrHeaderListSize},
		{"list size 0: the default allows a small list", func(d *Decoder) { d.SetMaxHeaderListSize(0) }, literalBlock(3, 10), nil},
		{"fields -5: no limit", func(d *Decoder) { d.SetMaxFields(-5) }, literalBlock(1000, 1), nil},
		{"fields 0: the default", func(d *Decoder) { d.SetMaxFields(0) }, literalBlock(1000, 1), ErrFieldCount},
		{"fields 0: the default allows a few", func(d *Decoder) { d.SetMaxFields(0) }, literalBlock(10, 1), nil},
	} {
		d := NewDecoder(DefaultTableSize)
		tc.set(d)
		err := d.Decode(mdelem.NewBatch(0, 0), tc.block)
		switch {
		case tc.limitd == nil && err != nil:
			t.Errorf("%s: %v, want success", tc.name, err)
		case tc.limitd != nil && !errors.Is(err, tc.limitd):
			t.Errorf("%s: %v, want %v", tc.name, err, tc.limitd)
		}
	}
}

// TestSetInternerIgnoresBadKeys checks that key IDs past NumKeys are
// ignored rather than indexing out of range.
func TestSetInternerIgnoresBadKeys(t *testing.T) {
	d := NewDecoder(DefaultTableSize)
	d.SetInterner(nil, staticdata.KeyContentType, tier.NumKeys, 200, 255)
	b := mdelem.NewBatch(0, 0)
	// content-type: application/grpc as a literal without indexing.
	block := append(appendInt(nil, 0x00, 4, 31), 16)
	block = append(block, "application/grpc"...)
	if err := d.Decode(b, block); err != nil {
		t.Fatal(err)
	}
	if v := b.At(0).Value; v.Atom() == nil {
		t.Errorf("content-type's value is not interned after SetInterner(nil, KeyContentType, ...): %q", v.String())
	}
}

// TestDecodeNilBatch checks that a nil batch drops the fields but keeps
// the dynamic table in sync, for Decode and DecodeFragment.
func TestDecodeNilBatch(t *testing.T) {
	block := literal(0x40, "x-a", "1", false)
	for _, fragmented := range []bool{false, true} {
		d := NewDecoder(DefaultTableSize)
		var err error
		if fragmented {
			if err = d.DecodeFragment(nil, block[:3], false); err == nil {
				err = d.DecodeFragment(nil, block[3:], true)
			}
		} else {
			err = d.Decode(nil, block)
		}
		if err != nil {
			t.Fatalf("fragmented %v: %v", fragmented, err)
		}
		if n, v, ok := d.DynamicEntry(0); !ok || n != "x-a" || v != "1" {
			t.Errorf("fragmented %v: table entry %q: %q, %v; want x-a: 1", fragmented, n, v, ok)
		}
	}
}
