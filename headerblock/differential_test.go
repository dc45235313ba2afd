package headerblock_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/metapack/metapack/internal/story"
	"github.com/metapack/metapack/internal/workload"
)

// A diffCase is one connection: its frame bytes and its readers' setup.
type diffCase struct {
	name string
	cfg  connConfig
	wire []byte
}

// TestDifferential reads every case's frames with x/net's Framer
// (ReadMetaHeaders set) and with a plain Framer and a Reader (ReadMeta and
// ReadBatch), and fails on any disagreement that is not one of the
// package's named differences. Run with -v for the counts.
func TestDifferential(t *testing.T) {
	categories := []struct {
		name  string
		cases func(t *testing.T) []diffCase
	}{
		{"corpus-workload", workloadCases},
		{"corpus-appendix-c", appendixCases},
		{"corpus-hpack-test-case", hpackTestCases},
		{"invalid-names", nameCases},
		{"invalid-values", valueCases},
		{"pseudo", pseudoCases},
		{"continuation", continuationCases},
		{"list-size", listSizeCases},
		{"string-over-list", stringOverListCases},
		{"size-updates", sizeUpdateCases},
		{"huffman", huffmanCases},
		{"every-split", splitCases},
	}
	total := newTally()
	for _, c := range categories {
		t.Run(c.name, func(t *testing.T) {
			cases := c.cases(t)
			tl := newTally()
			for _, dc := range cases {
				if msg := runConn(dc.wire, dc.cfg, tl); msg != "" {
					t.Errorf("%s (maxList %d): %s", dc.name, dc.cfg.maxList, msg)
				}
			}
			tl.cases[c.name] = len(cases)
			t.Logf("%s: %d connections, %d ReadFrame comparisons, disagreements by name (per reading form) %s",
				c.name, len(cases), tl.readFrame, formatCounts(tl.named))
			total.cases[c.name] = len(cases)
			total.readFrame += tl.readFrame
			for k, v := range tl.named {
				total.named[k] += v
			}
		})
	}
	n := 0
	for _, v := range total.cases {
		n += v
	}
	t.Logf("total: %d connections, %d ReadFrame comparisons; disagreements by name %s", n, total.readFrame, formatCounts(total.named))
}

func formatCounts(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s=%d", k, m[k]))
	}
	return strings.Join(parts, " ")
}

// listSizes are the MaxHeaderListSize values the corpora are read under:
// x/net's default, and limits real lists go over.
var listSizes = []uint32{0, 8192, 1024, 300, 100}

// writeLists writes each list as a block on its own stream, whole or in
// fragments of frag bytes.
func writeLists(w *connWriter, lists [][]story.Header, frag int) {
	for i, hs := range lists {
		pairs := make([]string, 0, 2*len(hs))
		for _, h := range hs {
			pairs = append(pairs, h.Name, h.Value)
		}
		w.headers(uint32(2*i+1), i%2 == 0, chunk(w.encode(pairs...), frag)...)
	}
}

// chunk cuts b into pieces of n bytes (one piece when n is 0).
func chunk(b []byte, n int) [][]byte {
	if n <= 0 || len(b) <= n {
		return [][]byte{b}
	}
	var out [][]byte
	for len(b) > n {
		out = append(out, b[:n])
		b = b[n:]
	}
	return append(out, b)
}

func workloadCases(t *testing.T) []diffCase {
	var out []diffCase
	corpora := map[string][][]story.Header{
		"grpc":    workload.GRPC(300, 1),
		"browser": workload.Browser(300, 1),
	}
	for _, name := range slices.Sorted(maps.Keys(corpora)) {
		lists := corpora[name]
		for _, frag := range []int{0, 7, 100} {
			for _, maxList := range listSizes {
				for i := 0; i < len(lists); i += 100 {
					w := newConnWriter()
					writeLists(w, lists[i:min(i+100, len(lists))], frag)
					out = append(out, diffCase{fmt.Sprintf("%s/%d/frag=%d", name, i, frag), connConfig{maxList: maxList}, w.bytes()})
				}
			}
		}
	}
	return out
}

func appendixCases(t *testing.T) []diffCase {
	stories, err := story.ReadAppendixC("../testdata/rfc7541-appendix-c.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out []diffCase
	for _, s := range stories {
		if s.TableSize != 4096 {
			continue // C.5 and C.6 start at 256 without a size update on the wire
		}
		for _, frag := range []int{0, 1, 5} {
			for _, maxList := range listSizes {
				w := newConnWriter()
				for i, c := range s.Cases {
					w.headers(uint32(2*i+1), false, chunk(c.Wire, frag)...)
				}
				out = append(out, diffCase{fmt.Sprintf("%s/frag=%d", s.Name, frag), connConfig{maxList: maxList}, w.bytes()})
			}
		}
	}
	return out
}

func hpackTestCases(t *testing.T) []diffCase {
	dir := story.Shared(t, "hpack-test-case")
	var out []diffCase
	for _, enc := range []string{"go-hpack", "haskell-http2-linear-huffman", "nghttp2", "node-http2-hpack", "python-hpack"} {
		stories, err := story.ReadDir(dir + "/" + enc)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range stories {
			if !s.HasWire() || slices.ContainsFunc(s.TableSizes(), func(n int) bool { return n != 4096 }) {
				t.Fatalf("%s/%s: want wires at table size 4096 throughout", enc, s.Name)
			}
			for _, maxList := range []uint32{0, 1024} {
				w := newConnWriter()
				for i, c := range s.Cases {
					// Frames of 1 to 50 bytes, but no more than 100 of
					// them: this corpus is for the blocks, not BlockBound.
					w.headers(uint32(2*i+1), i%3 == 0, chunk(c.Wire, max(1+i%50, (len(c.Wire)+99)/100))...)
				}
				out = append(out, diffCase{enc + "/" + s.Name, connConfig{maxList: maxList}, w.bytes()})
			}
		}
	}
	return out
}
