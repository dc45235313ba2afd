package hpack

import (
	"bytes"
	"testing"

	"golang.org/x/net/http2/hpack"

	"github.com/metapack/metapack/internal/story"
	"github.com/metapack/metapack/mdelem"
)

// encBenchCorpus is a corpus prepared for the encode benchmarks: per story,
// its header lists as batches and as x/net fields.
type encBenchCorpus struct {
	name    string
	batches [][]*mdelem.Batch
	xfields [][][]hpack.HeaderField
	bytes   int64 // header bytes (names and values) per pass
}

func newEncBenchCorpus(name string, stories ...[][]story.Header) *encBenchCorpus {
	c := &encBenchCorpus{name: name, bytes: int64(encHeaderBytes(stories...))}
	for _, lists := range stories {
		c.batches = append(c.batches, encBatches(lists))
		var xs [][]hpack.HeaderField
		for _, hs := range lists {
			x := make([]hpack.HeaderField, len(hs))
			for i, h := range hs {
				x[i] = hpack.HeaderField{Name: h.Name, Value: h.Value}
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
// encoder per story per pass.
func BenchmarkEncode(b *testing.B) {
	var corpora []*encBenchCorpus
	if shared, ok := encRawStoriesIfPresent(); ok {
		corpora = append(corpora, newEncBenchCorpus("raw-data", shared...))
	} else {
		b.Log("../shared (hpack-test-case raw-data) is absent; benchmarking the grpc corpus only")
	}
	corpora = append(corpora, newEncBenchCorpus("grpc", encGRPCStory()))
	for _, c := range corpora {
		b.Run("corpus="+c.name+"/impl=metapack", func(b *testing.B) { benchmarkEncodeCorpus(b, c, false) })
		// The pure-Go twins, which -tags purego builds in their place.
		b.Run("corpus="+c.name+"/impl=metapack-purego", func(b *testing.B) { benchmarkEncodeCorpus(b, c, true) })
		b.Run("corpus="+c.name+"/impl=xnet", func(b *testing.B) {
			var buf bytes.Buffer
			buf.Grow(64 << 10)
			b.SetBytes(c.bytes)
			b.ReportAllocs()
			for b.Loop() {
				for _, lists := range c.xfields {
					e := hpack.NewEncoder(&buf)
					for _, fields := range lists {
						buf.Reset()
						for _, f := range fields {
							e.WriteField(f)
						}
					}
				}
			}
		})
	}
}

// benchmarkEncodeCorpus is BenchmarkEncode's run of ours; safe switches
// the encoders to the pure-Go twins.
func benchmarkEncodeCorpus(b *testing.B, c *encBenchCorpus, safe bool) {
	encs := make([]*Encoder, len(c.batches))
	for i := range encs {
		encs[i] = NewEncoder(DefaultTableSize)
		encs[i].safe = safe
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
