package hpack

import (
	"errors"
	"fmt"
	"github.com/metapack/metapack/internal/hcode"
	"strings"
	"testing"

	"github.com/metapack/metapack/mdelem"
)

// decodeOutcomes decodes blocks with d, whole or split into fragments of
// frag bytes (0: whole), and describes each block's fields, error and the
// table after it.
func decodeOutcomes(d *Decoder, blocks [][]byte, frag int) []string {
	var out []string
	b := mdelem.NewBatch(0, 0)
	for _, block := range blocks {
		b.Reset()
		var err error
		if frag == 0 {
			err = d.Decode(b, block)
		} else {
			for i := 0; ; i += frag {
				end := min(i+frag, len(block))
				if err = d.DecodeFragment(b, block[i:end], end == len(block)); err != nil || end == len(block) {
					break
				}
			}
		}
		out = append(out, decodeOutcome(d, b, err))
	}
	return out
}

// TestStringLimitIsStreamError sends strings over the limit in every kind
// of literal, raw and Huffman-coded, whole and in fragments: each must be a
// *DecodingError wrapping ErrStringLength (a stream error), drop that field and
// the block's later ones, keep the dynamic table exactly as an unlimited
// decoder's (checked by a block that then indexes every entry), and leave
// the decoder usable.
func TestStringLimitIsStreamError(t *testing.T) {
	const limit = 50
	long := strings.Repeat("abcdefghij", 12) // 120 bytes, over the limit
	huge := strings.Repeat("z", 5000)        // its entry is larger than the table
	for _, tc := range []struct {
		name  string
		block []byte
	}{
		{"value, without indexing", literal(0x00, "x-a", long, false)},
		{"value, never indexed, Huffman", literal(0x10, "x-a", long, true)},
		{"name, without indexing", literal(0x00, "x-"+long, "v", false)},
		{"name, Huffman", literal(0x00, "x-"+long, "v", true)},
		{"value, indexed, the entry fits the table", literal(0x40, "x-a", long, false)},
		{"value, indexed, Huffman, the entry fits", literal(0x40, "x-a", long, true)},
		{"name, indexed, the entry fits", literal(0x40, "x-"+long, "v", false)},
		{"value, indexed, the entry is larger than the table", literal(0x40, "x-a", huge, false)},
		{"name, indexed, Huffman, the entry is larger", literal(0x40, "x-"+huge, "v", true)},
		{"value, static name", append(appendInt([]byte{0x40}, 0x40, 6, 4)[1:], append(appendInt(nil, 0, 7, uint64(len(long))), long...)...)},
		{"Huffman under the limit raw, over it decoded", literal(0x00, "x-a", strings.Repeat("0", 70), true)},
	} {
		for _, frag := range []int{0, 1, 7, 64} {
			// Before: a block that fills the table; after: one that
			// indexes every entry, so that a table out of step fails.
			before := append(literal(0x40, "x-1", "one", false), literal(0x40, "x-2", "two", false)...)
			block := append(append(literal(0x00, "x-before", "kept", false), tc.block...), literal(0x00, "x-after", "dropped", false)...)
			after := []byte{0xbe, 0xbf, 0xc0}
			blocks := [][]byte{before, block, after}

			ref := NewDecoder(DefaultTableSize)
			ref.SetMaxStringLength(-1)
			want := decodeOutcomes(ref, blocks, 0)

			d := NewDecoder(DefaultTableSize)
			d.SetMaxStringLength(limit)
			got := decodeOutcomes(d, blocks, frag)

			b := mdelem.NewBatch(0, 0)
			d2 := NewDecoder(DefaultTableSize)
			d2.SetMaxStringLength(limit)
			_ = d2.Decode(b, before)
			b.Reset()
			err := d2.Decode(b, block)
			var le *DecodingError
			if !errors.As(err, &le) || !errors.Is(err, ErrStringLength) || !IsStreamError(err) {
				t.Errorf("%s: %v, want a *DecodingError wrapping ErrStringLength", tc.name, err)
				continue
			}
			if fields := batchPairs(b); len(fields) != 1 || fields[0] != [2]string{"x-before", "kept"} {
				t.Errorf("%s: fields %q, want only the one before the long string", tc.name, fields)
			}
			// The tables agree after each block, and the last block's
			// fields are those of the unlimited decoder.
			wantTables, gotTables := tableLines(want), tableLines(got)
			if fmt.Sprint(gotTables) != fmt.Sprint(wantTables) || got[2] != want[2] {
				t.Errorf("%s, fragments of %d: limited decoder\n%s\nunlimited\n%s", tc.name, frag, strings.Join(got, "\n--\n"), strings.Join(want, "\n--\n"))
			}
		}
	}
}

// tableLines returns the table part of each decodeOutcome.
func tableLines(outcomes []string) []string {
	var out []string
	for _, o := range outcomes {
		out = append(out, o[strings.LastIndex(o, "\ntable "):])
	}
	return out
}

// TestStringLimitSkipsBytes feeds a value of 1 MiB over the limit, in a
// field without indexing, in fragments of 16 KiB: the decoder must skip it
// as it arrives, buffering none of it.
func TestStringLimitSkipsBytes(t *testing.T) {
	d := NewDecoder(DefaultTableSize)
	value := strings.Repeat("v", 1<<20)
	block := literal(0x00, "x-a", value, false)
	b := mdelem.NewBatch(0, 0)
	var err error
	for i := 0; i < len(block); i += 16 << 10 {
		end := min(i+16<<10, len(block))
		if err = d.DecodeFragment(b, block[i:end], end == len(block)); err != nil {
			break
		}
		if cap(d.pending) > 64 {
			t.Fatalf("after %d bytes the decoder buffers %d bytes", end, cap(d.pending))
		}
	}
	if !errors.Is(err, ErrStringLength) || !IsStreamError(err) {
		t.Fatalf("%v, want a stream error for the string length", err)
	}
	if err := d.Decode(b, []byte{0x82}); err != nil {
		t.Errorf("the next block: %v", err)
	}
}

// TestDefaultStringLimitFitsList checks the defaults: any field that fits
// the header list size decodes, such as the single 16,385-byte value a
// grpc-go client may send.
func TestDefaultStringLimitFitsList(t *testing.T) {
	for _, n := range []int{16 << 10, 16<<10 + 1, defaultMaxHeaderListSize - 32 - 3} {
		d := NewDecoder(DefaultTableSize)
		b := mdelem.NewBatch(0, 0)
		if err := d.Decode(b, literal(0x00, "x-a", strings.Repeat("v", n), false)); err != nil {
			t.Errorf("a value of %d bytes: %v", n, err)
		}
	}
}

// TestStringLimitAppliesToCachedAtoms lowers the limit after the decoder
// cached a short Huffman-coded value as an atom: the cached atom must not
// get past the new limit.
func TestStringLimitAppliesToCachedAtoms(t *testing.T) {
	d := NewDecoder(DefaultTableSize)
	b := mdelem.NewBatch(0, 0)
	// content-type (static index 31) without indexing, Huffman-coded
	// application/grpc: interned, so cached.
	block := appendInt(nil, 0x00, 4, 31)
	block = appendInt(block, 0x80, 7, uint64(hcode.EncodedLen("application/grpc")))
	block = AppendHuffmanString(block, "application/grpc")
	if err := d.Decode(b, block); err != nil {
		t.Fatal(err)
	}
	d.SetMaxStringLength(10)
	b.Reset()
	if err := d.Decode(b, block); !errors.Is(err, ErrStringLength) || b.Len() != 0 {
		t.Errorf("a cached 16-byte atom under a limit of 10: %v, fields %q", err, batchPairs(b))
	}
}
