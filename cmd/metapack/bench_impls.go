package main

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"unique"

	"github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/intern"
	"github.com/metapack/metapack/mdelem"
	xhpack "golang.org/x/net/http2/hpack"
)

// measurement is one row of the benchmark: what an op is, and how to set
// up our implementation and the peer's (in that order) on a corpus.
type measurement struct {
	name  string
	op    string
	per   string // the bytes MB/s counts
	work  benchWork
	setup func() []impl
}

// measurements returns the benchmark's rows for corpus c.
func (c *benchCorpus) measurements() []measurement {
	return []measurement{
		{"decode", "header block", "wire", benchWork{c.blocks, c.wireBytes}, c.decodeImpls},
		{"encode", "header list", "name+value", benchWork{c.blocks, c.headerBytes}, c.encodeImpls},
		{"huffman-decode", "string", "huffman", benchWork{len(c.huff), c.huffSize}, c.huffmanDecodeImpls},
		{"huffman-encode", "string", "string", benchWork{len(c.strs), c.strBytes}, c.huffmanEncodeImpls},
		{"intern", "string", "string", benchWork{len(c.strs), c.strBytes}, c.internImpls},
	}
}

// decodeImpls decodes every story's blocks in order. Our decoders are made
// once and Reset per pass; x/net's Decoder has no Reset, so it gets a new
// one per story (per connection), and its emit func only counts.
func (c *benchCorpus) decodeImpls() []impl {
	decs := make([]*hpack.Decoder, len(c.stories))
	for i, s := range c.stories {
		decs[i] = newCorpusDecoder(uint32(s.sizes[0]))
	}
	batch := mdelem.NewBatch(64, 4096)
	ours := func() error {
		for i, s := range c.stories {
			d := decs[i]
			d.SetAllowedMaxDynamicTableSize(uint32(s.sizes[0]))
			d.Reset()
			for j, w := range s.wire {
				if j > 0 && s.sizes[j] != s.sizes[j-1] {
					d.SetAllowedMaxDynamicTableSize(uint32(s.sizes[j]))
				}
				batch.Reset()
				if err := d.Decode(batch, w); err != nil {
					return errors.New(decodeProblem(s.name, j, err).String())
				}
			}
		}
		return nil
	}
	fields := 0
	emit := func(xhpack.HeaderField) { fields++ }
	xnet := func() error {
		for _, s := range c.stories {
			d := xhpack.NewDecoder(uint32(s.sizes[0]), emit)
			for j, w := range s.wire {
				if j > 0 && s.sizes[j] != s.sizes[j-1] {
					d.SetAllowedMaxDynamicTableSize(uint32(s.sizes[j]))
				}
				_, err := d.Write(w)
				if err == nil {
					err = d.Close()
				}
				if err != nil {
					return fmt.Errorf("metapack: %s: seqno %d: x/net's decoder: %v", s.name, j, err)
				}
			}
		}
		return nil
	}
	return []impl{{"metapack", ours}, {"x/net", xnet}}
}

// encodeImpls encodes every story's header lists in order, from header
// lists built beforehand: a batch per list for ours, a []HeaderField for
// x/net's. Our encoders are Reset per pass; x/net's Encoder has no Reset, so
// it gets a new one per story.
func (c *benchCorpus) encodeImpls() []impl {
	encs := make([]*hpack.Encoder, len(c.stories))
	batches := make([][]*mdelem.Batch, len(c.stories))
	lists := make([][][]xhpack.HeaderField, len(c.stories))
	for i, s := range c.stories {
		encs[i] = newStoryEncoder(s.sizes)
		for _, hs := range s.headers {
			b := mdelem.NewBatch(len(hs), 0)
			appendBatch(b, hs)
			batches[i] = append(batches[i], b)
			l := make([]xhpack.HeaderField, len(hs))
			for k, h := range hs {
				l[k] = xhpack.HeaderField{Name: h.Name, Value: h.Value}
			}
			lists[i] = append(lists[i], l)
		}
	}
	buf := make([]byte, 0, 64<<10)
	ours := func() error {
		for i, s := range c.stories {
			e := encs[i]
			e.SetMaxDynamicTableSize(uint32(s.sizes[0]))
			e.Reset()
			for j, b := range batches[i] {
				if j > 0 && s.sizes[j] != s.sizes[j-1] {
					e.SetMaxDynamicTableSize(uint32(s.sizes[j]))
				}
				buf = e.AppendBlock(buf[:0], b)
			}
		}
		return nil
	}
	xnet := func() error {
		for i, s := range c.stories {
			x := newXnetStoryEncoder(s.sizes)
			x.buf.Grow(64 << 10)
			for j, l := range lists[i] {
				if j > 0 && s.sizes[j] != s.sizes[j-1] {
					x.enc.SetMaxDynamicTableSize(uint32(s.sizes[j]))
				}
				x.buf.Reset()
				for _, f := range l {
					if err := x.enc.WriteField(f); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	return []impl{{"metapack", ours}, {"x/net", xnet}}
}

// huffmanDecodeImpls decodes every string's Huffman encoding into a reused
// buffer.
func (c *benchCorpus) huffmanDecodeImpls() []impl {
	dst := make([]byte, 0, 64<<10)
	ours := func() error {
		for _, h := range c.huff {
			var err error
			if dst, err = hpack.AppendHuffmanDecode(dst[:0], h, -1); err != nil {
				return fmt.Errorf("metapack: huffman-decode: %w", err)
			}
		}
		return nil
	}
	var buf bytes.Buffer
	buf.Grow(64 << 10)
	xnet := func() error {
		for _, h := range c.huff {
			buf.Reset()
			if _, err := xhpack.HuffmanDecode(&buf, h); err != nil {
				return fmt.Errorf("metapack: huffman-decode: x/net: %w", err)
			}
		}
		return nil
	}
	return []impl{{"metapack", ours}, {"x/net", xnet}}
}

// huffmanEncodeImpls Huffman-encodes every string into a reused buffer.
func (c *benchCorpus) huffmanEncodeImpls() []impl {
	dst := make([]byte, 0, 64<<10)
	ours := func() error {
		for _, s := range c.strs {
			dst = hpack.AppendHuffmanString(dst[:0], s)
		}
		return nil
	}
	xnet := func() error {
		for _, s := range c.strs {
			dst = xhpack.AppendHuffmanString(dst[:0], s)
		}
		return nil
	}
	return []impl{{"metapack", ours}, {"x/net", xnet}}
}

// internImpls interns every string, in tables that already hold them all:
// an intern.Table with room for every distinct string, and unique.Make's
// map, whose handles are kept alive so that the garbage collector does not
// empty it between rounds.
func (c *benchCorpus) internImpls() []impl {
	distinct := make(map[string]bool)
	longest, size := 0, 0
	for _, s := range c.strs {
		if !distinct[s] {
			distinct[s] = true
			longest = max(longest, len(s))
			size += len(s)
		}
	}
	table := intern.New(intern.Limits{
		MaxEntries: max(len(distinct), 16),
		MaxBytes:   2*size + 128*len(distinct), // records and size-class rounding
		MaxLen:     longest,
	})
	var handles []unique.Handle[string]
	for s := range distinct {
		if _, ok := intern.Make(table, s); !ok {
			panic(fmt.Sprintf("intern table too small for %q", s))
		}
		handles = append(handles, unique.Make(s))
	}
	ours := func() error {
		for _, s := range c.strs {
			intern.Make(table, s)
		}
		return nil
	}
	peer := func() error {
		for _, s := range c.strs {
			unique.Make(s)
		}
		runtime.KeepAlive(handles) // and so unique's entries
		return nil
	}
	return []impl{{"metapack", ours}, {"unique", peer}}
}
