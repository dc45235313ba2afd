package hpack_test

import (
	"bytes"
	"testing"

	chpack "github.com/metapack/metapack/compat/hpack"
	"github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/internal/story"
	"github.com/metapack/metapack/internal/twin"
	"github.com/metapack/metapack/mdelem"
	xhpack "golang.org/x/net/http2/hpack"
)

// encBenchCorpus is a corpus prepared for the encode benchmarks: per story,
// its header lists as batches, as x/net fields and as compat/hpack fields.
type encBenchCorpus struct {
	name    string
	batches [][]*mdelem.Batch
	xfields [][][]xhpack.HeaderField
	cfields [][][]chpack.HeaderField
	bytes   int64 // header bytes (names and values) per pass
}

func newEncBenchCorpus(name string, stories ...[][]story.Header) *encBenchCorpus {
	c := &encBenchCorpus{name: name, bytes: int64(hpack.EncHeaderBytes(stories...))}
	for _, lists := range stories {
		c.batches = append(c.batches, hpack.EncBatches(lists))
		var xs [][]xhpack.HeaderField
		var cs [][]chpack.HeaderField
		for _, hs := range lists {
			x := make([]xhpack.HeaderField, len(hs))
			cf := make([]chpack.HeaderField, len(hs))
			for i, h := range hs {
				x[i] = xhpack.HeaderField{Name: h.Name, Value: h.Value}
				cf[i] = chpack.HeaderField{Name: h.Name, Value: h.Value}
			}
			xs = append(xs, x)
			cs = append(cs, cf)
		}
		c.xfields = append(c.xfields, xs)
		c.cfields = append(c.cfields, cs)
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
		b.Run("corpus="+c.name+"/impl=metapack", func(b *testing.B) { benchmarkEncodeCorpus(b, c, false) })
		// The pure-Go twins, which -tags purego builds in their place.
		b.Run("corpus="+c.name+"/impl=metapack-purego", func(b *testing.B) { benchmarkEncodeCorpus(b, c, true) })
		b.Run("corpus="+c.name+"/impl=xnet", func(b *testing.B) { benchmarkEncodeXnet(b, c) })
		b.Run("corpus="+c.name+"/impl=compat", func(b *testing.B) { benchmarkEncodeCompat(b, c) })
	}
}

// benchmarkEncodeCorpus is BenchmarkEncode's run of ours; safe switches
// the encoders to the pure-Go twins.
func benchmarkEncodeCorpus(b *testing.B, c *encBenchCorpus, safe bool) {
	encs := make([]*hpack.Encoder, len(c.batches))
	for i := range encs {
		encs[i] = hpack.NewEncoder(hpack.DefaultTableSize)
		if safe {
			twin.UseSafeEncoder(encs[i])
		}
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

// benchmarkEncodeXnet is BenchmarkEncode's run of x/net's Encoder.
func benchmarkEncodeXnet(b *testing.B, c *encBenchCorpus) {
	var buf bytes.Buffer
	buf.Grow(64 << 10)
	b.SetBytes(c.bytes)
	b.ReportAllocs()
	for b.Loop() {
		for _, lists := range c.xfields {
			e := xhpack.NewEncoder(&buf)
			for _, fields := range lists {
				buf.Reset()
				for _, f := range fields {
					e.WriteField(f)
				}
			}
		}
	}
}

// benchmarkEncodeCompat is benchmarkEncodeXnet on the drop-in: the same
// code with compat/hpack's import in place of x/net's.
func benchmarkEncodeCompat(b *testing.B, c *encBenchCorpus) {
	var buf bytes.Buffer
	buf.Grow(64 << 10)
	b.SetBytes(c.bytes)
	b.ReportAllocs()
	for b.Loop() {
		for _, lists := range c.cfields {
			e := chpack.NewEncoder(&buf)
			for _, fields := range lists {
				buf.Reset()
				for _, f := range fields {
					e.WriteField(f)
				}
			}
		}
	}
}
