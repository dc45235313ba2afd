package hpack

import (
	"bytes"
	"testing"
	"unsafe"

	"github.com/metapack/metapack/mdelem"
)

// keepBlocks are a literal with incremental indexing of a custom value
// (x-k: v, both raw) and then, in a second block, two indexed fields of
// that entry (index 62).
var keepBlocks = [][]byte{
	{0x40, 0x03, 'x', '-', 'k', 0x05, 'v', 'a', 'l', 'u', 'e'},
	{0xbe, 0xbe},
}

// TestDecodeFragmentKeep: the owned copy fn returns for an indexed
// literal is what the table keeps, and what later indexed fields of that
// entry pass to fn, as owned bytes at the same address.
func TestDecodeFragmentKeep(t *testing.T) {
	d := NewDecoder(DefaultTableSize)
	var copies [][]byte
	var seen []mdelem.Str
	fn := func(f mdelem.Field) mdelem.Str {
		seen = append(seen, f.Value)
		if f.Value.Kind() == mdelem.KindOwned {
			return mdelem.Str{}
		}
		c := bytes.Clone(f.Value.UnsafeBytes())
		copies = append(copies, c)
		return mdelem.StrOf(mdelem.Owned(c))
	}
	for i, blk := range keepBlocks {
		if err := d.DecodeFragmentKeep(fn, blk, true); err != nil {
			t.Fatalf("block %d: %v", i, err)
		}
	}
	if len(seen) != 3 || len(copies) != 1 {
		t.Fatalf("fn saw %d fields and made %d copies, want 3 and 1", len(seen), len(copies))
	}
	for i, v := range seen[1:] {
		if v.Kind() != mdelem.KindOwned || v.String() != "value" ||
			unsafe.SliceData(v.UnsafeBytes()) != unsafe.SliceData(copies[0]) {
			t.Errorf("indexed field %d: value %q of kind %v, not the kept copy", i, v.String(), v.Kind())
		}
	}
	if name, value, ok := d.DynamicEntry(0); !ok || name != "x-k" || value != "value" {
		t.Errorf("table entry 0 = %q: %q, %v", name, value, ok)
	}
}

// TestDecodeFragmentKeepIgnoresUnfit: a returned Str that is not owned
// bytes equal to the value is ignored, and the table copies the value
// itself.
func TestDecodeFragmentKeepIgnoresUnfit(t *testing.T) {
	for _, tc := range []struct {
		name string
		ret  mdelem.Str
	}{
		{"zero", mdelem.Str{}},
		{"shorter", mdelem.StrOf(mdelem.Owned([]byte("val")))},
		{"other bytes", mdelem.StrOf(mdelem.Owned([]byte("VALUE")))},
		{"borrowed", mdelem.StrOf(mdelem.Borrowed([]byte("VALUE")))},
		{"atom", mdelem.StrOf(mdelem.Static(nil))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := NewDecoder(DefaultTableSize)
			var got []string
			fn := func(f mdelem.Field) mdelem.Str {
				got = append(got, f.Value.String())
				return tc.ret
			}
			for i, blk := range keepBlocks {
				if err := d.DecodeFragmentKeep(fn, blk, true); err != nil {
					t.Fatalf("block %d: %v", i, err)
				}
			}
			if len(got) != 3 || got[1] != "value" || got[2] != "value" {
				t.Fatalf("fields %q, want the value three times", got)
			}
		})
	}
}

// TestDecodeFragmentKeepNil: a nil fn drops the fields and the table
// still follows the peer.
func TestDecodeFragmentKeepNil(t *testing.T) {
	d := NewDecoder(DefaultTableSize)
	for i, blk := range keepBlocks {
		if err := d.DecodeFragmentKeep(nil, blk, true); err != nil {
			t.Fatalf("block %d: %v", i, err)
		}
	}
	if d.DynamicTableLen() != 1 {
		t.Fatalf("table holds %d entries, want 1", d.DynamicTableLen())
	}
}
