package main

import (
	"fmt"

	"github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/internal/story"
)

// benchStory is one story as the measurements use it.
type benchStory struct {
	name    string
	sizes   []int    // the table size in force at each case
	wire    [][]byte // each case's header block
	headers [][]story.Header
}

// benchCorpus is the data every measurement runs on.
type benchCorpus struct {
	stories []benchStory
	// Totals over the stories: header blocks, their wire bytes, stories
	// whose wire our encoder made, and name plus value bytes.
	blocks, wireBytes, ourWire, headerBytes int
	// strs holds every non-empty name and value of the headers, in order,
	// and huff their Huffman encodings.
	strs               []string
	huff               [][]byte
	strBytes, huffSize int
}

// newBenchCorpus prepares stories for the measurements. A story whose cases
// all have a wire is decoded from it; any other story (raw-data/) is encoded
// by our encoder first, and that is what both decoders decode. Every story's
// headers are what the encoders encode.
func newBenchCorpus(stories []*story.Story) (*benchCorpus, error) {
	c := &benchCorpus{}
	for _, s := range stories {
		if len(s.Cases) == 0 {
			continue
		}
		bs := benchStory{name: s.Name, sizes: s.TableSizes()}
		if s.HasWire() {
			for _, cs := range s.Cases {
				bs.wire = append(bs.wire, cs.Wire)
			}
		} else {
			bs.wire = encodeStory(s)
			c.ourWire++
		}
		for i, cs := range s.Cases {
			bs.headers = append(bs.headers, cs.Headers)
			c.wireBytes += len(bs.wire[i])
			for _, h := range cs.Headers {
				c.addString(h.Name)
				c.addString(h.Value)
				c.headerBytes += len(h.Name) + len(h.Value)
			}
		}
		c.blocks += len(s.Cases)
		c.stories = append(c.stories, bs)
	}
	if c.blocks == 0 || len(c.strs) == 0 {
		return nil, fmt.Errorf("the corpus has no headers to benchmark")
	}
	return c, nil
}

func (c *benchCorpus) addString(s string) {
	if s == "" {
		return
	}
	c.strs = append(c.strs, s)
	h := hpack.AppendHuffmanString(nil, s)
	c.huff = append(c.huff, h)
	c.strBytes += len(s)
	c.huffSize += len(h)
}

// describe says what the corpus holds, for the report.
func (c *benchCorpus) describe() string {
	d := fmt.Sprintf("%d stories, %d header blocks, %d wire bytes, %d header bytes", len(c.stories), c.blocks, c.wireBytes, c.headerBytes)
	if c.ourWire > 0 {
		d += fmt.Sprintf("; %d stories without wire decoded from our encoder's output", c.ourWire)
	}
	return d
}
