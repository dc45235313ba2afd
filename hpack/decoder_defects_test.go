package hpack

import (
	"bytes"
	"errors"
	"testing"

	"github.com/metapack/metapack/mdelem"
)

// feedBlock decodes block through DecodeFragment in fragments of frag bytes
// (0: through Decode), and returns the error that ends it.
func feedBlock(d *Decoder, block []byte, frag int) error {
	b := mdelem.NewBatch(0, 0)
	if frag == 0 {
		return d.Decode(b, block)
	}
	for i := 0; ; i += frag {
		end := min(i+frag, len(block))
		if err := d.DecodeFragment(b, block[i:end], end == len(block)); err != nil || end == len(block) {
			return err
		}
	}
}

// TestTruncatedSkipOffset checks that a block ending inside an over-limit
// string that is being skipped fails at the offset of the field's start.
func TestTruncatedSkipOffset(t *testing.T) {
	giant := []byte{0x82, 0x04, 0x7f, 0x81, 0xff, 0xff, 0xff, 0x03} // 1 GiB value
	giant = append(giant, bytes.Repeat([]byte("a"), 3000)...)
	for _, tc := range []struct {
		name  string
		block []byte
		want  int
	}{
		{"value, raw", []byte{0x82, 0x04, 0x05, 0x61, 0x61}, 1},
		{"value, Huffman", []byte{0x82, 0x04, 0x85, 0xff, 0xff}, 1},
		{"name, before the value's prefix", []byte{0x82, 0x00, 0x03, 0x61, 0x61, 0x61}, 1},
		{"value, 1 GiB", giant, 1},
	} {
		for _, frag := range []int{0, 1, 2, 1000} {
			d := NewDecoder(DefaultTableSize)
			d.SetMaxStringLength(1)
			err := feedBlock(d, tc.block, frag)
			var de *DecodingError
			if !errors.As(err, &de) || !errors.Is(err, ErrTruncated) || de.Offset != tc.want {
				t.Errorf("%s, fragments of %d: %v, want ErrTruncated at byte %d", tc.name, frag, err, tc.want)
			}
		}
	}
}

// TestBlockErrOverLimitIndexed checks that BlockErr reports a string over
// the limit as soon as its length is read, whether or not the table needs
// its bytes.
func TestBlockErrOverLimitIndexed(t *testing.T) {
	for _, tc := range []struct {
		name string
		frag []byte
	}{
		{"incremental indexing, value", []byte{0x40, 0x01, 0x61, 0x02}},
		{"incremental indexing, name", []byte{0x40, 0x02, 0x61}},
		{"without indexing, value", []byte{0x00, 0x01, 0x61, 0x02}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, b := range []*mdelem.Batch{nil, mdelem.NewBatch(0, 0)} {
				d := NewDecoder(DefaultTableSize)
				d.SetMaxStringLength(1)
				if err := d.DecodeFragment(b, tc.frag, false); err != nil {
					t.Fatal(err)
				}
				if err := d.BlockErr(); !errors.Is(err, ErrStringLength) {
					t.Fatalf("BlockErr = %v, want ErrStringLength", err)
				}
			}
		})
	}
}

// TestSkippedHuffmanChecked checks that an over-limit Huffman string is
// checked as it is skipped: bad coding is the same fatal ErrInvalidHuffman
// as with the default limit.
func TestSkippedHuffmanChecked(t *testing.T) {
	// huffValue is a literal without indexing of :path (index 4) whose
	// Huffman-coded value is 2995 zero bytes (4792 '0's) and then tail.
	huffValue := func(rep byte, tail ...byte) []byte {
		body := append(make([]byte, 2995), tail...)
		return append(appendInt([]byte{rep}, 0x80, 7, uint64(len(body))), body...)
	}
	eos := append([]byte{0x04, 0xff, 0xb9, 0x16}, bytes.Repeat([]byte{0xff}, 3000)...)
	nameEOS := append([]byte{0x00, 0xff, 0xb9, 0x16}, bytes.Repeat([]byte{0xff}, 3000)...)
	nameEOS = append(nameEOS, 0x01, 0x61)
	indexedEOS := append([]byte{0x40, 0x01, 0x61, 0xff, 0xb9, 0x16}, bytes.Repeat([]byte{0xff}, 3000)...)
	for _, tc := range []struct {
		name  string
		block []byte
		want  error // nil: a stream error
	}{
		{"EOS inside", eos, ErrInvalidHuffman},
		{"padding of 8 bits", huffValue(0x04, 0, 0, 0, 0, 0, 0xff), ErrInvalidHuffman},
		{"padding not all ones", huffValue(0x04, 0, 0, 0, 0, 0x1e), ErrInvalidHuffman},
		{"valid", huffValue(0x04, 0, 0, 0, 0, 0x1f), nil},
		{"EOS inside a name", nameEOS, ErrInvalidHuffman},
		{"EOS inside, incremental indexing, entry too large", indexedEOS, ErrInvalidHuffman},
	} {
		for _, limit := range []int{-1, 1000} {
			for _, frag := range []int{0, 1, 7, 1000} {
				d := NewDecoder(DefaultTableSize)
				d.SetMaxStringLength(limit)
				err := feedBlock(d, tc.block, frag)
				if tc.want == nil {
					if limit > 0 && !IsStreamError(err) || limit < 0 && err != nil {
						t.Errorf("%s, limit %d, fragments of %d: %v", tc.name, limit, frag, err)
					}
					continue
				}
				var de *DecodingError
				if !errors.Is(err, tc.want) || !errors.As(err, &de) || de.Offset != 0 {
					t.Errorf("%s, limit %d, fragments of %d: %v, want %v at byte 0", tc.name, limit, frag, err, tc.want)
				}
			}
		}
	}
}
