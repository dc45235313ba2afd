package hpack_test

import (
	"sort"
	"testing"

	compat "github.com/metapack/metapack/compat/hpack"
	"github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/internal/story"
	"github.com/metapack/metapack/internal/workload"
	"github.com/metapack/metapack/mdelem"
	xhpack "golang.org/x/net/http2/hpack"
)

// decodeCorpus is a named set of encoded stories.
type decodeCorpus struct {
	name    string
	stories []*story.Story
	sizes   [][]int // each story's table size per case
	wire    int     // bytes of encoded blocks per pass
}

// decodeCorpora returns the synthetic gRPC workload (1,000 unary calls on
// one connection, encoded by x/net's encoder) and, when the interop corpus
// is present, every encoder directory of it and the raw-string corpus
// raw-data-plain: raw-data encoded by x/net at table sizes 256, 4096 and
// 65536, with every string sent raw (see corpus_plain_test.go).
func decodeCorpora(b *testing.B) []decodeCorpus {
	var out []decodeCorpus
	lists := workload.GRPC(3000, 1) // 1,000 calls: request, response, trailers
	sizes := make([]int, len(lists))
	for i := range sizes {
		sizes[i] = 4096
	}
	grpc := hpack.XnetEncodeStory(lists, sizes)
	out = append(out, decodeCorpus{name: "grpc", stories: []*story.Story{grpc}})
	if _, ok := story.SharedDir(); ok || hpack.CorpusEnvSet() {
		byDir := hpack.CorpusStories(b, true)
		names := make([]string, 0, len(byDir))
		for n := range byDir {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			out = append(out, decodeCorpus{name: n, stories: byDir[n]})
		}
	}
	if plain, ok := hpack.PlainStoriesIfPresent(b); ok {
		out = append(out, decodeCorpus{name: "raw-data-plain", stories: plain})
	}
	for i := range out {
		for _, s := range out[i].stories {
			out[i].sizes = append(out[i].sizes, s.TableSizes())
			for _, c := range s.Cases {
				out[i].wire += len(c.Wire)
			}
		}
	}
	return out
}

// BenchmarkDecode decodes whole corpora per iteration, with decoders and
// the batch reused (metapack), against x/net's Decoder with an emit func
// (xnet) and the drop-in compat/hpack used the same way (compat).
// Throughput counts encoded bytes.
func BenchmarkDecode(b *testing.B) {
	for _, c := range decodeCorpora(b) {
		b.Run("corpus="+c.name+"/impl=metapack", func(b *testing.B) { benchmarkDecodeCorpus(b, c) })
		b.Run("corpus="+c.name+"/impl=xnet", func(b *testing.B) { benchmarkDecodeXnetAPI(b, c, newXnetDecoder) })
		b.Run("corpus="+c.name+"/impl=compat", func(b *testing.B) { benchmarkDecodeXnetAPI(b, c, newCompatDecoder) })
	}
}

// benchmarkDecodeCorpus decodes c per iteration with reused decoders and
// batch. -tags purego measures the pure-Go build.
func benchmarkDecodeCorpus(b *testing.B, c decodeCorpus) {
	decoders := make([]*hpack.Decoder, len(c.stories))
	for i, s := range c.stories {
		decoders[i] = hpack.NewCorpusDecoder(uint32(s.TableSizes()[0]))
	}
	batch := mdelem.NewBatch(64, 4096)
	fields := 0
	pass := func() {
		for i, s := range c.stories {
			d := decoders[i]
			d.Reset()
			sizes := c.sizes[i]
			for j := range s.Cases {
				if j > 0 && sizes[j] != sizes[j-1] {
					d.SetAllowedMaxDynamicTableSize(uint32(sizes[j]))
				}
				batch.Reset()
				if err := d.Decode(batch, s.Cases[j].Wire); err != nil {
					b.Fatal(err)
				}
				fields += batch.Len()
			}
		}
	}
	// One pass before the timer starts grows the decoders' buffers
	// and tables to what the corpus needs, so that the loop
	// measures the steady state that a long-lived connection sees.
	pass()
	b.SetBytes(int64(c.wire))
	b.ReportAllocs()
	for b.Loop() {
		pass()
	}
	if fields == 0 {
		b.Fatal("decoded nothing")
	}
}

// xnetDecoder is the part of x/net's Decoder API the benchmark uses;
// compat/hpack's Decoder has it too, with the same HeaderField type.
type xnetDecoder interface {
	SetMaxStringLength(n int)
	SetAllowedMaxDynamicTableSize(v uint32)
	Write(p []byte) (int, error)
	Close() error
}

// newXnetDecoder is x/net's NewDecoder.
func newXnetDecoder(max uint32, emit func(xhpack.HeaderField)) xnetDecoder {
	return xhpack.NewDecoder(max, emit)
}

// newCompatDecoder is the drop-in's NewDecoder.
func newCompatDecoder(max uint32, emit func(compat.HeaderField)) xnetDecoder {
	return compat.NewDecoder(max, emit)
}

// benchmarkDecodeXnetAPI decodes c per iteration with x/net's API, a new
// Decoder per story per pass: x/net's own (impl=xnet) or the drop-in's
// (impl=compat), the same code for both.
func benchmarkDecodeXnetAPI(b *testing.B, c decodeCorpus, newDecoder func(uint32, func(xhpack.HeaderField)) xnetDecoder) {
	fields := 0
	emit := func(f xhpack.HeaderField) { fields++ }
	b.SetBytes(int64(c.wire))
	b.ReportAllocs()
	for b.Loop() {
		for i, s := range c.stories {
			sizes := c.sizes[i]
			d := newDecoder(uint32(sizes[0]), emit)
			d.SetMaxStringLength(1 << 20)
			for j := range s.Cases {
				if j > 0 && sizes[j] != sizes[j-1] {
					d.SetAllowedMaxDynamicTableSize(uint32(sizes[j]))
				}
				if _, err := d.Write(s.Cases[j].Wire); err != nil {
					b.Fatal(err)
				}
				if err := d.Close(); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	if fields == 0 {
		b.Fatal("decoded nothing")
	}
}
