package hpack_test

import (
	"bytes"
	"io"
	"testing"

	compat "github.com/metapack/metapack/compat/hpack"
	"github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/internal/story"
	"github.com/metapack/metapack/mdelem"
	xhpack "golang.org/x/net/http2/hpack"
)

// encBenchCorpus is a corpus prepared for the encode benchmarks: per story,
// its header lists as batches and as x/net fields (compat/hpack's
// HeaderField is x/net's type).
type encBenchCorpus struct {
	name    string
	batches [][]*mdelem.Batch
	xfields [][][]xhpack.HeaderField
	bytes   int64 // header bytes (names and values) per pass
}

func newEncBenchCorpus(name string, stories ...[][]story.Header) *encBenchCorpus {
	c := &encBenchCorpus{name: name, bytes: int64(hpack.EncHeaderBytes(stories...))}
	for _, lists := range stories {
		c.batches = append(c.batches, hpack.EncBatches(lists))
		var xs [][]xhpack.HeaderField
		for _, hs := range lists {
			x := make([]xhpack.HeaderField, len(hs))
			for i, h := range hs {
				x[i] = xhpack.HeaderField{Name: h.Name, Value: h.Value}
			}
			xs = append(xs, x)
		}
		c.xfields = append(c.xfields, xs)
	}
	return c
}

// BenchmarkEncode encodes a whole corpus per iteration, one encoder per
// story, each header list one block. Ours keeps its encoders and Resets
// them per pass (steady state); x/net's has no Reset, so it gets a new
// encoder per story per pass, and so does the drop-in (compat), used
// exactly as x/net's.
func BenchmarkEncode(b *testing.B) {
	var corpora []*encBenchCorpus
	if shared, ok := hpack.EncRawStoriesIfPresent(); ok {
		corpora = append(corpora, newEncBenchCorpus("raw-data", shared...))
	} else {
		b.Log(story.SkipMessage + "; benchmarking the grpc corpus only")
	}
	corpora = append(corpora, newEncBenchCorpus("grpc", hpack.EncGRPCStory()))
	for _, c := range corpora {
		b.Run("corpus="+c.name+"/impl=metapack", func(b *testing.B) { benchmarkEncodeCorpus(b, c) })
		b.Run("corpus="+c.name+"/impl=xnet", func(b *testing.B) { benchmarkEncodeXnetAPI(b, c, newXnetEncoder) })
		b.Run("corpus="+c.name+"/impl=compat", func(b *testing.B) { benchmarkEncodeXnetAPI(b, c, newCompatEncoder) })
	}
}

// benchmarkEncodeCorpus is BenchmarkEncode's run of ours.
func benchmarkEncodeCorpus(b *testing.B, c *encBenchCorpus) {
	encs := make([]*hpack.Encoder, len(c.batches))
	for i := range encs {
		encs[i] = hpack.NewEncoder(hpack.DefaultTableSize)
	}
	buf := make([]byte, 0, 64<<10)
	pass := func() {
		for i, e := range encs {
			e.Reset()
			for _, batch := range c.batches[i] {
				buf = e.AppendBlock(buf[:0], batch)
			}
		}
	}
	pass() // warm up: the literal caches grow to their size
	b.SetBytes(c.bytes)
	b.ReportAllocs()
	for b.Loop() {
		pass()
	}
}

// xnetEncoder is the part of x/net's Encoder API the benchmark uses,
// which compat/hpack's Encoder has too.
type xnetEncoder interface {
	WriteField(f xhpack.HeaderField) error
}

func newXnetEncoder(w io.Writer) xnetEncoder   { return xhpack.NewEncoder(w) }
func newCompatEncoder(w io.Writer) xnetEncoder { return compat.NewEncoder(w) }

// benchmarkEncodeXnetAPI is BenchmarkEncode's run of x/net's API, a new
// Encoder per story per pass: x/net's own (impl=xnet) or the drop-in's
// (impl=compat), the same code for both.
func benchmarkEncodeXnetAPI(b *testing.B, c *encBenchCorpus, newEncoder func(io.Writer) xnetEncoder) {
	var buf bytes.Buffer
	buf.Grow(64 << 10)
	b.SetBytes(c.bytes)
	b.ReportAllocs()
	for b.Loop() {
		for _, lists := range c.xfields {
			e := newEncoder(&buf)
			for _, fields := range lists {
				buf.Reset()
				for _, f := range fields {
					e.WriteField(f)
				}
			}
		}
	}
}
