package hpack

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/metapack/metapack/internal/story"
	"github.com/metapack/metapack/mdelem"
)

// rfcStory is one of RFC 7541 Appendix C's examples, as the project's
// transcription gives it.
type rfcStory = story.AppendixStory

// readRFCExamples reads testdata/rfc7541-appendix-c.txt.
func readRFCExamples(t *testing.T) []rfcStory {
	t.Helper()
	stories, err := story.ReadAppendixC("../testdata/rfc7541-appendix-c.txt")
	if err != nil {
		t.Fatal(err)
	}
	return stories
}

// batchPairs lists a batch's fields as name/value pairs.
func batchPairs(b *mdelem.Batch) [][2]string {
	var out [][2]string
	for _, f := range b.All() {
		out = append(out, [2]string{f.Name.String(), f.Value.String()})
	}
	return out
}

func tablePairs(d *Decoder) [][2]string {
	var out [][2]string
	for i := range d.table.Len() {
		n, v, _ := d.DynamicEntry(i)
		out = append(out, [2]string{n, v})
	}
	return out
}

// TestDecodeRFC7541AppendixC decodes the C.2 to C.6 examples whole and split
// at every byte, checking the fields and the dynamic table after each block.
func TestDecodeRFC7541AppendixC(t *testing.T) {
	for _, s := range readRFCExamples(t) {
		for _, split := range []bool{false, true} {
			d := NewDecoder(s.TableSize)
			b := mdelem.NewBatch(0, 0)
			for i, c := range s.Cases {
				b.Reset()
				var err error
				if split {
					for j := range c.Wire {
						if err = d.DecodeFragment(b, c.Wire[j:j+1], j == len(c.Wire)-1); err != nil {
							break
						}
					}
				} else {
					err = d.Decode(b, c.Wire)
				}
				if err != nil {
					t.Fatalf("%s case %d (split %v): %v", s.Name, i, split, err)
				}
				if diff := cmp.Diff(c.Headers, batchPairs(b)); diff != "" {
					t.Errorf("%s case %d (split %v) fields (-want +got):\n%s", s.Name, i, split, diff)
				}
				if diff := cmp.Diff(c.Table, tablePairs(d)); diff != "" {
					t.Errorf("%s case %d (split %v) table (-want +got):\n%s", s.Name, i, split, diff)
				}
				if size, _ := d.DynamicTableSize(); size != c.TableSize {
					t.Errorf("%s case %d: table size %d, want %d", s.Name, i, size, c.TableSize)
				}
				if s.Name == "C.2.3" && !b.At(0).Sensitive() {
					t.Errorf("C.2.3: a never-indexed field lost its flag")
				}
			}
		}
	}
}
