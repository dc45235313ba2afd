package headerblock_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/metapack/metapack/internal/story"
)

// splitCases cuts small blocks into frames in every way: every set of cut
// points for a block of up to 12 bytes, every one and every two cut points
// for a longer one. Each block follows one that filled the dynamic table,
// and a block that indexes it follows, so the table's state counts.
func splitCases(t *testing.T) []diffCase {
	stories, err := story.ReadAppendixC("../testdata/rfc7541-appendix-c.txt")
	if err != nil {
		t.Fatal(err)
	}
	type blk struct {
		name   string
		before []byte // a block the connection starts with; nil for none
		block  []byte
	}
	var blocks []blk
	for _, s := range stories {
		if s.TableSize != 4096 {
			continue
		}
		for i, c := range s.Cases {
			b := blk{name: fmt.Sprintf("%s/%d", s.Name, i), block: c.Wire}
			if i > 0 {
				b.before = s.Cases[i-1].Wire
			}
			if i < 2 {
				blocks = append(blocks, b)
			}
		}
	}
	idx := litIdx("a", "b")
	for name, b := range map[string][]byte{
		"invalid-name":    cat(lit("A", "b"), []byte{0x82}),
		"invalid-value":   cat([]byte{0x82}, lit("x", "\x00")),
		"pseudo-after":    cat(lit("a", "b"), []byte{0x82}),
		"dup-pseudo":      {0x82, 0x84, 0x82},
		"mixed":           {0x82, 0x88, 0xbe},
		"two-updates":     {0x20, 0x3f, 0xe1, 0x1f, 0x82},
		"update-after":    {0x82, 0x20, 0x84},
		"three-updates":   {0x20, 0x20, 0x20, 0xbe},
		"int-bound":       {0x3f, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0x82},
		"truncated":       {0x82, 0x00, 0x01, 'a'},
		"over-list":       cat([]byte{0x82}, lit("x", strings.Repeat("y", 20))),
		"string-over":     cat(lit("x", strings.Repeat("y", 61)), []byte{0x82}),
		"trailer":         cat(lit("trailer", "a,b,c"), []byte{0x82, 0xbe}),
		"indexed-then":    cat(idx, []byte{0xbe, 0xbe}),
		"bad-then-update": cat(litIdx("x", "\x0f"), []byte{0x3f, 0xe1, 0x1f}),
		"huffman-pseudo":  {0x82, 0x86, 0x84, 0x41, 0x8c, 0xf1, 0xe3, 0xc2, 0xe5, 0xf2, 0x3a, 0x6b, 0xa0, 0xab, 0x90, 0xf4, 0xff},
	} {
		blocks = append(blocks, blk{name: name, before: idx, block: b})
	}
	var out []diffCase
	for _, b := range blocks {
		for _, maxList := range []uint32{0, 60, 45} {
			for _, cuts := range cutSets(len(b.block)) {
				w := newConnWriter()
				if b.before != nil {
					w.headers(1, false, b.before)
				}
				w.headers(3, true, splitAtCuts(b.block, cuts)...).headers(5, false, []byte{0xbe, 0x82})
				out = append(out, diffCase{fmt.Sprintf("split/%s/max=%d/cuts=%v", b.name, maxList, cuts), connConfig{maxList: maxList}, w.bytes()})
			}
		}
	}
	return out
}

// cutSets returns every set of cut points in a block of n bytes when n is
// at most 12, and every single and double cut otherwise. Cuts are between
// bytes, 1 to n-1; an empty set leaves the block whole.
func cutSets(n int) [][]int {
	var out [][]int
	if n <= 12 {
		for mask := 0; mask < 1<<max(n-1, 0); mask++ {
			var cuts []int
			for i := range n - 1 {
				if mask&(1<<i) != 0 {
					cuts = append(cuts, i+1)
				}
			}
			out = append(out, cuts)
		}
		return out
	}
	out = append(out, nil)
	for i := 1; i < n; i++ {
		out = append(out, []int{i})
		for j := i + 1; j < n; j++ {
			out = append(out, []int{i, j})
		}
	}
	return out
}

func splitAtCuts(b []byte, cuts []int) [][]byte {
	var out [][]byte
	prev := 0
	for _, c := range cuts {
		out = append(out, b[prev:c])
		prev = c
	}
	return append(out, b[prev:])
}
