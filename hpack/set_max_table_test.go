package hpack

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/metapack/metapack/mdelem"
)

// litIndexed returns a literal field with incremental indexing and a new
// name; its entry's size is len(name)+len(value)+32.
func litIndexed(name, value string) []byte {
	b := appendInt([]byte{0x40}, 0, 7, uint64(len(name)))
	b = append(b, name...)
	b = appendInt(b, 0, 7, uint64(len(value)))
	return append(b, value...)
}

// dynamicEntries returns d's dynamic table, newest first, as name=value.
func dynamicEntries(d *Decoder) []string {
	var es []string
	for i := 0; ; i++ {
		n, v, ok := d.DynamicEntry(i)
		if !ok {
			return es
		}
		es = append(es, n+"="+v)
	}
}

// TestSetMaxDynamicTableSize checks that SetMaxDynamicTableSize sets the
// table's maximum at once, evicting as a size update does, that it meets
// the update a lower allowed bound requires, that the peer's updates stay
// bound by SetAllowedMaxDynamicTableSize, and that in the middle of a block
// the rest of the block sees the new table.
func TestSetMaxDynamicTableSize(t *testing.T) {
	ten := strings.Repeat("v", 10)
	// Entries a, b and c of 43 bytes each, c the newest (index 62).
	abc := slices.Concat(litIndexed("a", ten), litIndexed("b", ten), litIndexed("c", ten))
	big := strings.Repeat("v", 3000)
	tests := []struct {
		name string
		// run drives d, after it has decoded abc, and returns the error
		// of its last call.
		run              func(t *testing.T, d *Decoder) error
		wantErr          error
		wantSize, wantMx uint32
		wantTable        []string
	}{
		{name: "evicts the oldest",
			run:      func(t *testing.T, d *Decoder) error { d.SetMaxDynamicTableSize(90); return nil },
			wantSize: 86, wantMx: 90, wantTable: []string{"c=" + ten, "b=" + ten}},
		{name: "raises within the bound",
			run: func(t *testing.T, d *Decoder) error {
				d.SetMaxDynamicTableSize(100)
				d.SetMaxDynamicTableSize(4096)
				return d.Decode(nil, litIndexed("d", ten))
			},
			wantSize: 129, wantMx: 4096, wantTable: []string{"d=" + ten, "c=" + ten, "b=" + ten}},
		{name: "0 empties the table",
			run: func(t *testing.T, d *Decoder) error {
				d.SetMaxDynamicTableSize(0)
				return d.Decode(nil, litIndexed("d", ten)) // not indexed
			},
			wantSize: 0, wantMx: 0},
		{name: "0 until the peer's update",
			run: func(t *testing.T, d *Decoder) error {
				d.SetMaxDynamicTableSize(0)
				return d.Decode(nil, slices.Concat(unhex(t, "3f e1 1f"), litIndexed("d", ten)))
			},
			wantSize: 43, wantMx: 4096, wantTable: []string{"d=" + ten}},
		{name: "the evicted entry is gone",
			run: func(t *testing.T, d *Decoder) error {
				d.SetMaxDynamicTableSize(0)
				return d.Decode(nil, []byte{0xbe})
			},
			wantErr: ErrInvalidIndex},
		{name: "above the allowed bound",
			run: func(t *testing.T, d *Decoder) error {
				d.SetMaxDynamicTableSize(8192)
				return d.Decode(nil, slices.Concat(litIndexed("x", big), litIndexed("y", big)))
			},
			wantSize: 129 + 2*3033, wantMx: 8192,
			wantTable: []string{"y=" + big, "x=" + big, "c=" + ten, "b=" + ten, "a=" + ten}},
		{name: "the peer stays within the allowed bound",
			run: func(t *testing.T, d *Decoder) error {
				d.SetMaxDynamicTableSize(8192)
				return d.Decode(nil, unhex(t, "3f e1 3f")) // 8192
			},
			wantErr: ErrSizeUpdateTooLarge},
		{name: "a lower bound requires an update",
			run: func(t *testing.T, d *Decoder) error {
				d.SetAllowedMaxDynamicTableSize(50)
				return d.Decode(nil, []byte{0x82})
			},
			wantErr: ErrSizeUpdateMissing},
		{name: "meets the required update",
			run: func(t *testing.T, d *Decoder) error {
				d.SetAllowedMaxDynamicTableSize(50)
				d.SetMaxDynamicTableSize(50)
				return d.Decode(nil, []byte{0x82})
			},
			wantSize: 43, wantMx: 50, wantTable: []string{"c=" + ten}},
		{name: "required update: shrinks to the lowest bound first",
			run: func(t *testing.T, d *Decoder) error {
				d.SetAllowedMaxDynamicTableSize(100)
				d.SetAllowedMaxDynamicTableSize(50)
				d.SetAllowedMaxDynamicTableSize(4096)
				d.SetMaxDynamicTableSize(4096)
				return d.Decode(nil, []byte{0x82})
			},
			wantSize: 43, wantMx: 4096, wantTable: []string{"c=" + ten}},
		{name: "between fragments",
			run: func(t *testing.T, d *Decoder) error {
				if err := d.DecodeFragment(nil, []byte{0xbe}, false); err != nil {
					return err
				}
				d.SetMaxDynamicTableSize(90) // evicts a
				return d.DecodeFragment(nil, []byte{0xc0}, true)
			},
			wantErr: ErrInvalidIndex},
		{name: "inside a field split between fragments",
			run: func(t *testing.T, d *Decoder) error {
				// A literal whose name is entry 63 (b), its index
				// split from its value.
				if err := d.DecodeFragment(nil, []byte{0x7f}, false); err != nil {
					return err
				}
				d.SetMaxDynamicTableSize(43) // keeps c alone
				return d.DecodeFragment(nil, []byte{0x00, 0x01, 'x'}, true)
			},
			wantErr: ErrInvalidIndex},
		{name: "between fragments, the field whole",
			run: func(t *testing.T, d *Decoder) error {
				if err := d.DecodeFragment(nil, []byte{0x7f}, false); err != nil {
					return err
				}
				d.SetMaxDynamicTableSize(86) // keeps c and b
				return d.DecodeFragment(nil, []byte{0x00, 0x01, 'x'}, true)
			},
			wantSize: 34 + 43, wantMx: 86, wantTable: []string{"b=x", "c=" + ten}},
		{name: "from fn, evicting the entry whose name a literal takes",
			run: func(t *testing.T, d *Decoder) error {
				// A literal with entry 62's name (c), then an indexed
				// field of the entry it adds.
				block := []byte{0x7e, 0x03, 'n', 'e', 'w', 0xbe}
				var got []string
				err := d.DecodeFragmentFunc(func(f mdelem.Field) {
					got = append(got, f.Name.String()+"="+f.Value.String())
					if len(got) == 1 {
						d.SetMaxDynamicTableSize(40)
					}
				}, block, true)
				if want := []string{"c=new", "c=new"}; !slices.Equal(got, want) {
					return fmt.Errorf("fields %q, want %q", got, want)
				}
				return err
			},
			wantSize: 36, wantMx: 40, wantTable: []string{"c=new"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := NewDecoder(DefaultTableSize)
			if err := d.Decode(nil, abc); err != nil {
				t.Fatal(err)
			}
			err := tt.run(t, d)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("got %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if size, mx := d.DynamicTableSize(); size != tt.wantSize || mx != tt.wantMx {
				t.Errorf("DynamicTableSize() = %d, %d; want %d, %d", size, mx, tt.wantSize, tt.wantMx)
			}
			if got := dynamicEntries(d); !slices.Equal(got, tt.wantTable) {
				t.Errorf("table %q, want %q", got, tt.wantTable)
			}
			// The decoder is still usable, in step with the table it
			// reports.
			if err := d.Decode(nil, []byte{0x82}); err != nil {
				t.Errorf("next block: %v", err)
			}
		})
	}
}

// TestSetMaxDynamicTableSizeZeroDecoder checks the method on a zero
// Decoder, which allows no table until SetAllowedMaxDynamicTableSize.
func TestSetMaxDynamicTableSizeZeroDecoder(t *testing.T) {
	var d Decoder
	d.SetMaxDynamicTableSize(100)
	if err := d.Decode(nil, litIndexed("a", "b")); err != nil {
		t.Fatal(err)
	}
	if got := dynamicEntries(&d); !slices.Equal(got, []string{"a=b"}) {
		t.Fatalf("table %q", got)
	}
}
