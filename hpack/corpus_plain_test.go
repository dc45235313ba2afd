package hpack

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/metapack/metapack/internal/story"
	xhpack "golang.org/x/net/http2/hpack"
)

// The raw-string corpus: raw-data encoded by x/net at several table sizes,
// then rewritten with every string literal sent as is, without Huffman
// coding, as an encoder that never Huffman-codes would send it. The
// representations and indexes stay as x/net chose them, so the blocks mean
// what x/net's did. BenchmarkDecode runs it as corpus=raw-data-plain.

// plainTableSizes are the table sizes the raw-string corpus is encoded
// at: a table that holds little, HTTP/2's default and a large one.
var plainTableSizes = []int{256, 4096, 65536}

// plainStrings returns block with each Huffman-coded string literal
// replaced by its decoding, sent raw.
func plainStrings(block []byte) ([]byte, error) {
	var out []byte
	for pos := 0; pos < len(block); {
		b := block[pos]
		var prefix uint
		switch {
		case b >= 0x80: // indexed field
			prefix = 7
		case b >= 0x40: // literal with incremental indexing
			prefix = 6
		case b >= 0x20: // dynamic table size update
			prefix = 5
		default: // literal without indexing or never indexed
			prefix = 4
		}
		idx, n, res := readInt(block[pos:], prefix)
		if res != intOK {
			return nil, fmt.Errorf("offset %d: bad integer", pos)
		}
		out = append(out, block[pos:pos+n]...)
		pos += n
		if prefix == 7 || prefix == 5 {
			continue
		}
		strings := 1
		if idx == 0 {
			strings = 2 // a new name, then the value
		}
		for ; strings > 0; strings-- {
			if pos >= len(block) {
				return nil, fmt.Errorf("offset %d: truncated string", pos)
			}
			huff := block[pos]&0x80 != 0
			l, n, res := readInt(block[pos:], 7)
			if res != intOK || uint64(len(block)-pos-n) < l {
				return nil, fmt.Errorf("offset %d: bad string length", pos)
			}
			s := block[pos+n : pos+n+int(l)]
			pos += n + int(l)
			if huff {
				d, err := xhpack.HuffmanDecodeToString(s)
				if err != nil {
					return nil, fmt.Errorf("offset %d: %v", pos, err)
				}
				s = []byte(d)
			}
			out = appendInt(out, 0, 7, uint64(len(s))) // H bit clear: raw
			out = append(out, s...)
		}
	}
	return out, nil
}

// plainStories returns the raw-string corpus: every story of lists
// encoded at each of plainTableSizes, with raw strings.
func plainStories(lists [][][]story.Header) ([]*story.Story, error) {
	var out []*story.Story
	for _, size := range plainTableSizes {
		for _, ls := range lists {
			sizes := make([]int, len(ls))
			for i := range sizes {
				sizes[i] = size
			}
			s := xnetEncodeStory(ls, sizes)
			for i := range s.Cases {
				w, err := plainStrings(s.Cases[i].Wire)
				if err != nil {
					return nil, err
				}
				s.Cases[i].Wire = w
			}
			out = append(out, s)
		}
	}
	return out, nil
}

// TestPlainStrings checks the raw-string corpus: no string in it is
// Huffman-coded, and x/net decodes each block to the header list it
// encoded.
func TestPlainStrings(t *testing.T) {
	lists, err := encReadRawStories()
	if err != nil {
		t.Fatal(err)
	}
	if lists == nil {
		t.Skip(story.SkipMessage)
	}
	stories, err := plainStories(lists)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range stories {
		dec := xhpack.NewDecoder(uint32(s.Cases[0].HeaderTableSize), nil)
		for _, c := range s.Cases {
			if h, err := plainStrings(c.Wire); err != nil || !bytes.Equal(h, c.Wire) {
				t.Fatalf("case %d: a string is still Huffman-coded (or %v)", c.Seqno, err)
			}
			fields, err := dec.DecodeFull(c.Wire)
			if err != nil {
				t.Fatalf("case %d: %v", c.Seqno, err)
			}
			got := make([]story.Header, len(fields))
			for i, f := range fields {
				got[i] = story.Header{Name: f.Name, Value: f.Value}
			}
			if diff := cmp.Diff(c.Headers, got); diff != "" {
				t.Fatalf("case %d: (-want +got)\n%s", c.Seqno, diff)
			}
		}
	}
}

// TestPlainStringsRejectsTruncated: a block cut inside a string is
// reported, not read past.
func TestPlainStringsRejectsTruncated(t *testing.T) {
	block := []byte{0x40, 0x83, 'a', 'b'} // a 3-byte name with 2 bytes
	if _, err := plainStrings(block); err == nil {
		t.Fatal("truncated block accepted")
	}
	if _, err := plainStrings([]byte{0x40}); err == nil {
		t.Fatal("block cut before its name accepted")
	}
}
