package hpack

import (
	"bufio"
	"encoding/hex"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/metapack/metapack/mdelem"
)

// rfcCase is one header block of the RFC 7541 Appendix C examples.
type rfcCase struct {
	wire      []byte
	headers   [][2]string
	table     [][2]string // newest first
	tableSize uint32
}

type rfcStory struct {
	name      string
	tableSize uint32
	cases     []rfcCase
}

// readRFCExamples reads testdata/rfc7541-appendix-c.txt.
func readRFCExamples(t *testing.T) []rfcStory {
	t.Helper()
	f, err := os.Open("../testdata/rfc7541-appendix-c.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var stories []rfcStory
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if text == "" || text[0] == '#' {
			continue
		}
		word, rest, _ := strings.Cut(text, " ")
		var cur *rfcCase
		if len(stories) > 0 && len(stories[len(stories)-1].cases) > 0 {
			s := &stories[len(stories)-1]
			cur = &s.cases[len(s.cases)-1]
		}
		pair := func() [2]string { n, v, _ := strings.Cut(rest, " "); return [2]string{n, v} }
		switch word {
		case "story":
			name, size, _ := strings.Cut(rest, " ")
			n, err := strconv.Atoi(size)
			if err != nil {
				t.Fatalf("line %d: %v", line, err)
			}
			stories = append(stories, rfcStory{name: name, tableSize: uint32(n)})
		case "case":
			s := &stories[len(stories)-1]
			s.cases = append(s.cases, rfcCase{})
		case "wire":
			if cur.wire, err = hex.DecodeString(rest); err != nil {
				t.Fatalf("line %d: %v", line, err)
			}
		case "header":
			cur.headers = append(cur.headers, pair())
		case "table":
			cur.table = append(cur.table, pair())
		case "tablesize":
			n, err := strconv.Atoi(rest)
			if err != nil {
				t.Fatalf("line %d: %v", line, err)
			}
			cur.tableSize = uint32(n)
		default:
			t.Fatalf("line %d: unknown word %q", line, word)
		}
	}
	if len(stories) == 0 {
		t.Fatal("no examples read")
	}
	return stories
}

// batchPairs lists a batch's fields as name/value pairs.
func batchPairs(b *mdelem.Batch) [][2]string {
	var out [][2]string
	for _, f := range b.All() {
		out = append(out, [2]string{f.Name.String(), f.Value.String()})
	}
	return out
}

func tablePairs(d *Decoder) [][2]string {
	var out [][2]string
	for i := range d.DynamicTableLen() {
		n, v, _ := d.DynamicEntry(i)
		out = append(out, [2]string{n, v})
	}
	return out
}

// TestDecodeRFC7541AppendixC decodes the C.2 to C.6 examples whole and split
// at every byte, checking the fields and the dynamic table after each block.
func TestDecodeRFC7541AppendixC(t *testing.T) {
	for _, s := range readRFCExamples(t) {
		for _, split := range []bool{false, true} {
			d := NewDecoder(s.tableSize)
			b := mdelem.NewBatch(0, 0)
			for i, c := range s.cases {
				b.Reset()
				var err error
				if split {
					for j := range c.wire {
						if err = d.DecodeFragment(b, c.wire[j:j+1], j == len(c.wire)-1); err != nil {
							break
						}
					}
				} else {
					err = d.Decode(b, c.wire)
				}
				if err != nil {
					t.Fatalf("%s case %d (split %v): %v", s.name, i, split, err)
				}
				if diff := cmp.Diff(c.headers, batchPairs(b)); diff != "" {
					t.Errorf("%s case %d (split %v) fields (-want +got):\n%s", s.name, i, split, diff)
				}
				if diff := cmp.Diff(c.table, tablePairs(d)); diff != "" {
					t.Errorf("%s case %d (split %v) table (-want +got):\n%s", s.name, i, split, diff)
				}
				if size, _ := d.DynamicTableSize(); size != c.tableSize {
					t.Errorf("%s case %d: table size %d, want %d", s.name, i, size, c.tableSize)
				}
				if s.name == "C.2.3" && !b.At(0).Sensitive() {
					t.Errorf("C.2.3: a never-indexed field lost its flag")
				}
			}
		}
	}
}
