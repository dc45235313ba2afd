package hpack

import (
	"os"
	"testing"

	"github.com/metapack/metapack/internal/hcode"
	"github.com/metapack/metapack/internal/story"
	"github.com/metapack/metapack/mdelem"
)

// The helpers the benchmarks of package hpack_test share with the internal
// tests. The benchmarks are external because they compare with
// compat/hpack, which imports this package.

// CorpusStories is corpusStories.
func CorpusStories(tb testing.TB, wireOnly bool) map[string][]*story.Story {
	return corpusStories(tb, wireOnly)
}

// CorpusEnvSet reports whether $HPACK_TEST_CASE names the corpus.
func CorpusEnvSet() bool { return os.Getenv("HPACK_TEST_CASE") != "" }

// NewCorpusDecoder is newCorpusDecoder.
func NewCorpusDecoder(tableSize uint32) *Decoder { return newCorpusDecoder(tableSize) }

// XnetEncodeStory is xnetEncodeStory.
func XnetEncodeStory(lists [][]story.Header, sizes []int) *story.Story {
	return xnetEncodeStory(lists, sizes)
}

// EncRawStoriesIfPresent is encRawStories for benchmarks that go on
// without the corpus.
func EncRawStoriesIfPresent() ([][][]story.Header, bool) {
	out, err := encReadRawStories()
	return out, err == nil && out != nil
}

// EncGRPCStory is encGRPCStory.
func EncGRPCStory() [][]story.Header { return encGRPCStory() }

// EncBatches is encBatches.
func EncBatches(lists [][]story.Header) []*mdelem.Batch { return encBatches(lists) }

// EncHeaderBytes is encHeaderBytes.
func EncHeaderBytes(stories ...[][]story.Header) int { return encHeaderBytes(stories...) }

// PlainStoriesIfPresent is the raw-string corpus (plainStories of
// raw-data), when the corpus is present.
func PlainStoriesIfPresent(tb testing.TB) ([]*story.Story, bool) {
	lists, err := encReadRawStories()
	if err != nil {
		tb.Fatal(err)
	}
	if lists == nil {
		return nil, false
	}
	out, err := plainStories(lists)
	if err != nil {
		tb.Fatal(err)
	}
	return out, true
}

// readString is the decoder's inlined read of a short string literal.
func (d *Decoder) readString(p []byte, pos int) (raw []byte, end int, huff, ok bool) {
	return hcode.ReadShortString(p, pos, 7, d.maxStringLen)
}

// The integer coding's names from before it moved to package hcode.
const (
	intOK        = hcode.IntOK
	intTruncated = hcode.IntTruncated
	intOverflow  = hcode.IntOverflow
)

func readInt(p []byte, n uint) (uint64, int, hcode.IntResult) { return hcode.ReadInt(p, n, maxInt) }

func appendInt(dst []byte, first byte, n uint, v uint64) []byte {
	return hcode.AppendInt(dst, n, first, v)
}
