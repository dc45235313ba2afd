package hpack

import (
	"bytes"
	"encoding/hex"
	"errors"
	"github.com/metapack/metapack/internal/hcode"
	"strings"
	"testing"

	"github.com/metapack/metapack/mdelem"
)

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDecodeAdversarial feeds malformed blocks and checks the typed error,
// the offset and that the decoder is poisoned afterwards.
func TestDecodeAdversarial(t *testing.T) {
	tests := []struct {
		name   string
		block  string
		want   error
		offset int
	}{
		{"index 0", "80", ErrInvalidIndex, 0},
		{"index 0 after fields", "82 86 80", ErrInvalidIndex, 2},
		{"index past the tables", "be", ErrInvalidIndex, 0},
		{"name index past the tables", "7f 07 00", ErrInvalidIndex, 0},
		{"huge index", "ff ff ff ff 0f", ErrInvalidIndex, 0},
		{"index above 2^32-1", "ff 80 80 80 80 10", ErrIntegerOverflow, 0},
		{"ten continuation bytes", "ff 80 80 80 80 80 80 80 80 80 80 00", ErrIntegerOverflow, 0},
		{"string of 2^40 bytes", "00 7f 81 80 80 80 80 80 20", ErrIntegerOverflow, 0},
		{"block ends inside a string over the limit", "00 7f 81 80 40 61", ErrTruncated, 0},
		{"Huffman padding over 7 bits", "00 01 61 81 ff", errHuffmanPadding, 0},
		{"Huffman zero padding", "00 01 61 81 00", errHuffmanPadding, 0},
		{"Huffman EOS", "00 01 61 84 ff ff ff ff", errHuffmanEOS, 0},
		{"Huffman name EOS", "00 84 ff ff ff ff 01 61", errHuffmanEOS, 0},
		{"size update above the maximum", "3f e2 1f", ErrSizeUpdateTooLarge, 0},
		{"size update after a field", "82 20", ErrSizeUpdateNotFirst, 1},
		{"three size updates", "20 20 20", ErrTooManySizeUpdates, 2},
		{"block ends inside a field", "40", ErrTruncated, 0},
		{"block ends inside a value", "82 40 01 61 05 61", ErrTruncated, 1},
		{"block ends inside an integer", "82 ff", ErrTruncated, 1},
	}
	for _, tt := range tests {
		for _, split := range []bool{false, true} {
			d := NewDecoder(DefaultTableSize)
			b := mdelem.NewBatch(0, 0)
			block := unhex(t, tt.block)
			var err error
			if split {
				for i := range block {
					if err = d.DecodeFragment(b, block[i:i+1], i == len(block)-1); err != nil {
						break
					}
				}
			} else {
				err = d.Decode(b, block)
			}
			if !errors.Is(err, tt.want) {
				t.Errorf("%s (split %v): error %v, want %v", tt.name, split, err, tt.want)
				continue
			}
			var de *DecodingError
			if !errors.As(err, &de) || de.Offset != tt.offset {
				t.Errorf("%s (split %v): error %v, want offset %d", tt.name, split, err, tt.offset)
			}
			if IsStreamError(err) {
				t.Errorf("%s: a decoding error reported as a stream error", tt.name)
			}
			if err := d.Decode(b, []byte{0x82}); !errors.Is(err, ErrDecoderPoisoned) || !errors.Is(err, tt.want) {
				t.Errorf("%s: after the error, Decode gives %v, want ErrDecoderPoisoned wrapping the first error", tt.name, err)
			}
		}
	}
}

func TestDecodeSizeUpdates(t *testing.T) {
	tests := []struct {
		name     string
		settings []uint32 // SetAllowedMaxDynamicTableSize calls before the block
		block    string
		want     error
		max      uint32
	}{
		{"min then max", nil, "20 3f e1 1f", nil, 4096},
		{"0 then 4096", nil, "20 3f e1 1f 82", nil, 4096},
		{"lowered then raised: min then final", []uint32{100, 4096}, "3f 45 3f e1 1f 82", nil, 4096},
		{"lowered: the first update must be at most the lowest", []uint32{100, 4096}, "3f e1 1f 82", ErrSizeUpdateNotLowest, 0},
		{"lowered: a block without an update", []uint32{100}, "82", ErrSizeUpdateMissing, 0},
		{"lowered: an update above the new value", []uint32{100}, "3f 46 82", ErrSizeUpdateTooLarge, 0},
		{"lowered: an update at the new value", []uint32{100}, "3f 45 82", nil, 100},
		{"raised: no update needed", []uint32{8192}, "82", nil, 4096},
		{"raised: may grow", []uint32{8192}, "3f e1 3f 82", nil, 8192},
	}
	for _, tt := range tests {
		d := NewDecoder(DefaultTableSize)
		for _, s := range tt.settings {
			d.SetAllowedMaxDynamicTableSize(s)
		}
		err := d.Decode(mdelem.NewBatch(0, 0), unhex(t, tt.block))
		if !errors.Is(err, tt.want) || (err == nil) != (tt.want == nil) {
			t.Errorf("%s: error %v, want %v", tt.name, err, tt.want)
			continue
		}
		if _, m := d.DynamicTableSize(); err == nil && m != tt.max {
			t.Errorf("%s: table maximum %d, want %d", tt.name, m, tt.max)
		}
	}
}

// literal encodes one literal field: rep is its first byte's pattern
// (0x40 incremental, 0x00 without indexing, 0x10 never indexed), with a
// new name; huff Huffman-codes both strings.
func literal(rep byte, name, value string, huff bool) []byte {
	str := func(b []byte, s string) []byte {
		if huff {
			b = appendInt(b, 0x80, 7, uint64(hcode.EncodedLen(s)))
			return AppendHuffmanString(b, s)
		}
		return append(appendInt(b, 0, 7, uint64(len(s))), s...)
	}
	return str(str([]byte{rep}, name), value)
}

func TestDecodeEntryLargerThanTable(t *testing.T) {
	d := NewDecoder(DefaultTableSize)
	d.SetMaxStringLength(8192)
	b := mdelem.NewBatch(0, 0)
	if err := d.Decode(b, literal(0x40, "small", "entry", false)); err != nil || d.table.Len() != 1 {
		t.Fatalf("setup: %v, %d entries", err, d.table.Len())
	}
	big := strings.Repeat("v", 4096)
	b.Reset()
	if err := d.Decode(b, literal(0x40, "big", big, false)); err != nil {
		t.Fatalf("an entry larger than the table is not an error: %v", err)
	}
	if d.table.Len() != 0 {
		t.Errorf("the table holds %d entries, want it emptied", d.table.Len())
	}
	if b.Len() != 1 || b.At(0).Value.String() != big {
		t.Errorf("the field itself was not emitted")
	}
}

// TestDecodeListLimitKeepsTableInSync adds a 4,064-byte entry and
// references it 16,000 times: decoding stops adding fields at the list
// limit, reports a stream error, and the table still matches the peer's.
func TestDecodeListLimitKeepsTableInSync(t *testing.T) {
	d := NewDecoder(DefaultTableSize)
	value := strings.Repeat("x", 4064-32-1)
	block := append(literal(0x40, "a", value, false), bytes.Repeat([]byte{0xbe}, 16000)...)
	block = append(block, literal(0x40, "after", "limit", false)...) // still indexed by the peer
	b := mdelem.NewBatch(0, 0)
	err := d.Decode(b, block)
	var le *DecodingError
	if !errors.As(err, &le) || !errors.Is(err, ErrHeaderListSize) || !IsStreamError(err) {
		t.Fatalf("error %v, want a header list *DecodingError", err)
	}
	if b.Size() > defaultMaxHeaderListSize {
		t.Errorf("batch holds %d bytes, over the limit", b.Size())
	}
	// The literal after the limit was still added, evicting the big entry
	// (4064 + 42 > 4096), exactly as in the peer's encoder.
	if got := tablePairs(d); len(got) != 1 || got[0] != [2]string{"after", "limit"} {
		t.Errorf("table after the limit: %v", got)
	}
	if size, _ := d.DynamicTableSize(); size != 5+5+32 {
		t.Errorf("table size %d, want %d", size, 5+5+32)
	}
	// The decoder is still usable and in sync: index 62 is that entry.
	b.Reset()
	if err := d.Decode(b, []byte{0xbe}); err != nil || b.At(0).Name.String() != "after" {
		t.Fatalf("next block: %v %v", err, batchPairs(b))
	}
}

func TestDecodeFieldFlood(t *testing.T) {
	d := NewDecoder(DefaultTableSize)
	b := mdelem.NewBatch(0, 0)
	err := d.Decode(b, bytes.Repeat([]byte{0, 0, 0}, 100000))
	if !errors.Is(err, ErrFieldCount) || !IsStreamError(err) {
		t.Fatalf("error %v, want ErrFieldCount", err)
	}
	if b.Len() != defaultMaxFields {
		t.Errorf("batch holds %d fields, want the limit %d", b.Len(), defaultMaxFields)
	}
}

// TestDecodeOneByteFragmentsLinear feeds a large block one byte at a time:
// the work, counted in bytes handed to parse, stays linear.
func TestDecodeOneByteFragmentsLinear(t *testing.T) {
	var block []byte
	block = append(block, literal(0x40, "long", strings.Repeat("L", 15000), false)...)
	for i := range 2000 {
		block = append(block, literal(0x40, "k", strings.Repeat("v", i%50), false)...)
	}
	d := NewDecoder(DefaultTableSize)
	d.SetMaxFields(1 << 20)
	d.SetMaxHeaderListSize(1 << 30)
	b := mdelem.NewBatch(0, 0)
	work := 0
	for i := range block {
		// DecodeFragment parses the kept bytes and the new one once
		// they hold what the field was known to need.
		if kept := len(d.pending); kept == 0 || kept+1 >= d.need {
			work += kept + 1
		}
		if err := d.DecodeFragment(b, block[i:i+1], i == len(block)-1); err != nil {
			t.Fatalf("byte %d: %v", i, err)
		}
	}
	if b.Len() != 2001 {
		t.Fatalf("decoded %d fields, want 2001", b.Len())
	}
	// Each field's bytes are parsed when its name's and its value's
	// lengths are known and when it is whole: a few times at most.
	if limit := 4 * len(block); work > limit {
		t.Errorf("%d bytes parsed for %d bytes: not linear", work, len(block))
	}
}
