package hpack

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/metapack/metapack/internal/story"
	"github.com/metapack/metapack/internal/workload"
	"github.com/metapack/metapack/mdelem"
	xhpack "golang.org/x/net/http2/hpack"
)

// corpusDir returns $HPACK_TEST_CASE, or ../shared/hpack-test-case, or
// skips the test when neither exists.
func corpusDir(tb testing.TB) string {
	tb.Helper()
	if dir := os.Getenv("HPACK_TEST_CASE"); dir != "" {
		return dir
	}
	return story.Shared(tb, "hpack-test-case")
}

// corpusStories returns the stories of every directory of the corpus,
// keyed by directory name; wireOnly keeps the directories with encoded
// blocks.
func corpusStories(tb testing.TB, wireOnly bool) map[string][]*story.Story {
	tb.Helper()
	root := corpusDir(tb)
	dirs, err := os.ReadDir(root)
	if err != nil {
		tb.Fatal(err)
	}
	out := map[string][]*story.Story{}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		stories, err := story.ReadDir(filepath.Join(root, d.Name()))
		if err != nil {
			tb.Fatal(err)
		}
		if len(stories) == 0 || (wireOnly && !stories[0].HasWire()) {
			continue
		}
		out[d.Name()] = stories
	}
	if len(out) == 0 {
		tb.Fatalf("no stories under %s", root)
	}
	return out
}

func headerPairs(hs []story.Header) [][2]string {
	out := make([][2]string, len(hs))
	for i, h := range hs {
		out[i] = [2]string{h.Name, h.Value}
	}
	return out
}

// newCorpusDecoder returns a decoder with limits wide enough for any test
// story.
func newCorpusDecoder(tableSize uint32) *Decoder {
	d := NewDecoder(tableSize)
	d.SetMaxHeaderListSize(1 << 30)
	d.SetMaxFields(1 << 20)
	d.SetMaxStringLength(1 << 20)
	return d
}

// decodeStory decodes every case of s with one decoder, whole or split at
// random fragment boundaries, and reports the first difference.
func decodeStory(t *testing.T, where string, s *story.Story, rng *rand.Rand) {
	t.Helper()
	sizes := s.TableSizes()
	d := newCorpusDecoder(uint32(sizes[0]))
	b := mdelem.NewBatch(0, 0)
	for i, c := range s.Cases {
		if i > 0 && sizes[i] != sizes[i-1] {
			d.SetAllowedMaxDynamicTableSize(uint32(sizes[i]))
		}
		b.Reset()
		var err error
		if rng == nil {
			err = d.Decode(b, c.Wire)
		} else {
			rest := c.Wire
			for {
				n := min(len(rest), rng.IntN(8))
				if err = d.DecodeFragment(b, rest[:n], n == len(rest)); err != nil || n == len(rest) {
					break
				}
				rest = rest[n:]
			}
		}
		if err != nil {
			t.Fatalf("%s case %d: %v", where, c.Seqno, err)
		}
		if diff := cmp.Diff(headerPairs(c.Headers), batchPairs(b)); diff != "" {
			t.Fatalf("%s case %d (-want +got):\n%s", where, c.Seqno, diff)
		}
	}
}

// TestDecodeInteropCorpus decodes every story of every encoder in the
// hpack-test-case corpus, whole and in random fragments.
func TestDecodeInteropCorpus(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for dir, stories := range corpusStories(t, true) {
		for _, s := range stories {
			decodeStory(t, dir+"/"+s.Name, s, nil)
			decodeStory(t, dir+"/"+s.Name+" (fragments)", s, rng)
		}
	}
}

// xnetEncodeStory encodes header lists with x/net's encoder, applying
// SETTINGS changes before the cases where sizes changes, and returns the
// story with wires filled in.
func xnetEncodeStory(lists [][]story.Header, sizes []int) *story.Story {
	var buf bytes.Buffer
	enc := xhpack.NewEncoder(&buf)
	enc.SetMaxDynamicTableSizeLimit(uint32(sizes[0]))
	enc.SetMaxDynamicTableSize(uint32(sizes[0]))
	s := &story.Story{}
	for i, hs := range lists {
		if i > 0 && sizes[i] != sizes[i-1] {
			enc.SetMaxDynamicTableSizeLimit(uint32(sizes[i]))
			enc.SetMaxDynamicTableSize(uint32(sizes[i]))
		}
		buf.Reset()
		for _, h := range hs {
			enc.WriteField(xhpack.HeaderField{Name: h.Name, Value: h.Value})
		}
		c := story.Case{Seqno: i, Headers: hs, Wire: bytes.Clone(buf.Bytes()), HeaderTableSize: sizes[i]}
		s.Cases = append(s.Cases, c)
	}
	return s
}

// TestDecodeXnetEncoded decodes stories that x/net's encoder produced from
// the raw-data corpus and the gRPC workload, at several table sizes and
// with SETTINGS changes mid-story.
func TestDecodeXnetEncoded(t *testing.T) {
	var sources [][][]story.Header
	sources = append(sources, workload.GRPC(600, 1))
	if shared, ok := story.SharedDir(); ok {
		raw, err := story.ReadDir(filepath.Join(shared, "hpack-test-case", "raw-data"))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range raw {
			var lists [][]story.Header
			for _, c := range s.Cases {
				lists = append(lists, c.Headers)
			}
			sources = append(sources, lists)
		}
	} else {
		t.Log(story.SkipMessage + "; only the generated gRPC workload is used")
	}
	schedules := map[string]func(i int) int{
		"0":       func(int) int { return 0 },
		"256":     func(int) int { return 256 },
		"4096":    func(int) int { return 4096 },
		"65536":   func(int) int { return 65536 },
		"changes": func(i int) int { return []int{4096, 4096, 256, 0, 1024, 65536, 4096}[(i/5)%7] },
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for name, size := range schedules {
		for k, lists := range sources {
			sizes := make([]int, len(lists))
			for i := range sizes {
				sizes[i] = size(i)
			}
			s := xnetEncodeStory(lists, sizes)
			where := "sizes=" + name + "/source=" + string(rune('A'+k%26))
			decodeStory(t, where, s, nil)
			decodeStory(t, where+" (fragments)", s, rng)
		}
	}
}
