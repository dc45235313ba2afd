package main

import (
	"bytes"

	"github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/internal/story"
	"github.com/metapack/metapack/mdelem"
	xhpack "golang.org/x/net/http2/hpack"
)

// A story's header lists are encoded as one connection: one encoder, and
// before each case the peer's SETTINGS_HEADER_TABLE_SIZE from
// Story.TableSizes. Both encoders may use all of the table the peer allows
// (at least 4096 bytes, their default).

// tableLimit returns the largest table size in sizes, and at least 4096.
func tableLimit(sizes []int) uint32 {
	limit := hpack.DefaultTableSize
	for _, s := range sizes {
		limit = max(limit, s)
	}
	return uint32(limit)
}

// newStoryEncoder returns our encoder for a story with table sizes sizes.
func newStoryEncoder(sizes []int) *hpack.Encoder {
	enc := hpack.NewEncoder(uint32(sizes[0]))
	enc.SetMaxDynamicTableSizeLimit(tableLimit(sizes))
	return enc
}

// appendBatch appends the headers hs to b as borrowed strings.
func appendBatch(b *mdelem.Batch, hs []story.Header) {
	for _, h := range hs {
		b.Append(mdelem.From(mdelem.BorrowString(h.Name), mdelem.BorrowString(h.Value)))
	}
}

// encodeStory returns our encoder's header block for each case of s.
func encodeStory(s *story.Story) [][]byte {
	if len(s.Cases) == 0 {
		return nil
	}
	sizes := s.TableSizes()
	enc := newStoryEncoder(sizes)
	batch := mdelem.NewBatch(64, 4096)
	wires := make([][]byte, len(s.Cases))
	for i, c := range s.Cases {
		if i > 0 && sizes[i] != sizes[i-1] {
			enc.SetMaxDynamicTableSize(uint32(sizes[i]))
		}
		batch.Reset()
		appendBatch(batch, c.Headers)
		wires[i] = enc.AppendBlock([]byte{}, batch) // not nil: an empty block is a wire
	}
	return wires
}

// xnetStoryEncoder is x/net's encoder set up for a story, and the buffer it
// writes to.
type xnetStoryEncoder struct {
	buf bytes.Buffer
	enc *xhpack.Encoder
}

// newXnetStoryEncoder returns x/net's encoder for a story with table sizes
// sizes. x/net's encoder, like its decoder, starts at 4096; it announces
// another first size with a size update.
func newXnetStoryEncoder(sizes []int) *xnetStoryEncoder {
	x := &xnetStoryEncoder{}
	x.enc = xhpack.NewEncoder(&x.buf)
	x.enc.SetMaxDynamicTableSizeLimit(tableLimit(sizes))
	if sizes[0] != hpack.DefaultTableSize {
		x.enc.SetMaxDynamicTableSize(uint32(sizes[0]))
	}
	return x
}

// encodeStoryXnet returns x/net's header block for each case of s.
func encodeStoryXnet(s *story.Story) [][]byte {
	if len(s.Cases) == 0 {
		return nil
	}
	sizes := s.TableSizes()
	x := newXnetStoryEncoder(sizes)
	wires := make([][]byte, len(s.Cases))
	for i, c := range s.Cases {
		if i > 0 && sizes[i] != sizes[i-1] {
			x.enc.SetMaxDynamicTableSize(uint32(sizes[i]))
		}
		x.buf.Reset()
		for _, h := range c.Headers {
			x.enc.WriteField(xhpack.HeaderField{Name: h.Name, Value: h.Value})
		}
		wires[i] = append([]byte{}, x.buf.Bytes()...)
	}
	return wires
}

// headerBytes returns the sum of the name and value lengths in s.
func headerBytes(s *story.Story) int {
	n := 0
	for _, c := range s.Cases {
		for _, h := range c.Headers {
			n += len(h.Name) + len(h.Value)
		}
	}
	return n
}
