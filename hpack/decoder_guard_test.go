package hpack

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/metapack/metapack/internal/guardpage"
	"github.com/metapack/metapack/internal/hcode"
	"github.com/metapack/metapack/internal/huffcontent"
	"github.com/metapack/metapack/internal/story"
	"github.com/metapack/metapack/internal/workload"
	"github.com/metapack/metapack/mdelem"
)

// guardConnections returns sequences of header blocks, each as one
// connection would send them: x/net-encoded gRPC and browser workloads,
// and literals whose names and values are Huffman-coded strings of every
// kind of content and of every length from 0 to 70 (Huffman even where it
// is longer, so that the long codes reach the last bytes of the block).
func guardConnections() [][][]byte {
	wires := func(s *story.Story) [][]byte {
		var out [][]byte
		for _, c := range s.Cases {
			out = append(out, c.Wire)
		}
		return out
	}
	sizes := func(n int) []int {
		s := make([]int, n)
		for i := range s {
			s[i] = DefaultTableSize
		}
		return s
	}
	grpc, browser := workload.GRPC(60, 1), workload.Browser(30, 2)
	conns := [][][]byte{
		wires(xnetEncodeStory(grpc, sizes(len(grpc)))),
		wires(xnetEncodeStory(browser, sizes(len(browser)))),
	}
	r := rand.New(rand.NewPCG(16, 4))
	for _, kind := range huffcontent.Kinds {
		var blocks [][]byte
		for n := 0; n <= 70; n++ {
			name := []byte(fmt.Sprintf("x-%s-%d", kind.Name, n))
			value := kind.Make(r, n)
			// Incremental indexing, so later blocks index the entry;
			// the last field of the block is the value, so its last
			// bytes are the block's.
			b := appendInt([]byte{0x40}, 0x80, 7, uint64(hcode.EncodedLen(string(name))))
			b = AppendHuffmanString(b, string(name))
			b = appendInt(b, 0x80, 7, uint64(hcode.EncodedLen(string(value))))
			b = AppendHuffmanString(b, string(value))
			blocks = append(blocks, b)
			if n%8 == 7 {
				blocks = append(blocks, []byte{0xbe}) // index 62: the newest entry
			}
		}
		conns = append(conns, blocks)
	}
	return conns
}

// decodeOutcome is what decoding a block showed: the fields, the error and
// the dynamic table after it.
func decodeOutcome(d *Decoder, b *mdelem.Batch, err error) string {
	return fmt.Sprintf("fields %q\nerr %v\ntable %q", batchPairs(b), err, tablePairs(d))
}

// TestDecoderAtGuard decodes every connection's blocks with each block
// ending at a guard page, and again starting right after one, and
// compares with decoding the same blocks from ordinary memory. Every
// prefix of every block of up to 80 bytes (and a sample of longer ones)
// is decoded at the guard too, by a decoder that has the same table: a
// truncated block must fail cleanly, reading nothing past its end.
func TestDecoderAtGuard(t *testing.T) {
	region := guardpage.NewRegion(t, 1<<16)
	for ci, conn := range guardConnections() {
		for _, place := range []string{"before", "after"} {
			ref, dec := newCorpusDecoder(DefaultTableSize), newCorpusDecoder(DefaultTableSize)
			rb, db := mdelem.NewBatch(16, 256), mdelem.NewBatch(16, 256)
			for bi, block := range conn {
				for cut := range len(block) {
					if cut > 80 && cut%17 != 0 {
						continue
					}
					trunc, tb := replayed(conn[:bi])
					_ = trunc.Decode(tb, placeAt(region, place, block[:cut])) // must not fault
				}
				rb.Reset()
				db.Reset()
				want := decodeOutcome(ref, rb, ref.Decode(rb, block))
				got := decodeOutcome(dec, db, dec.Decode(db, placeAt(region, place, block)))
				if got != want {
					t.Fatalf("connection %d block %d %s the guard:\n%s\nwant\n%s", ci, bi, place, got, want)
				}
			}
		}
	}
}

// TestDecodeFragmentAtGuard splits every block into fragments at random
// points (and at every point for blocks up to 64 bytes), each fragment in
// its own mapping with its last byte against a guard page, and checks that
// DecodeFragment decodes what Decode does.
func TestDecodeFragmentAtGuard(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 5))
	regions := []*guardpage.Region{guardpage.NewRegion(t, 1<<16), guardpage.NewRegion(t, 1<<16), guardpage.NewRegion(t, 1<<16)}
	for ci, conn := range guardConnections() {
		ref := newCorpusDecoder(DefaultTableSize)
		rb := mdelem.NewBatch(16, 256)
		for bi, block := range conn {
			rb.Reset()
			want := decodeOutcome(ref, rb, ref.Decode(rb, block))
			// Two cuts make three fragments, each tried on a decoder
			// that replayed the connection so far.
			var splits [][2]int
			if len(block) <= 64 {
				for a := 0; a <= len(block); a++ {
					splits = append(splits, [2]int{a, a + r.IntN(len(block)-a+1)})
				}
			} else {
				for range 8 {
					a := r.IntN(len(block) + 1)
					splits = append(splits, [2]int{a, a + r.IntN(len(block)-a+1)})
				}
			}
			for _, sp := range splits {
				d, b := replayed(conn[:bi])
				frags := [][]byte{block[:sp[0]], block[sp[0]:sp[1]], block[sp[1]:]}
				var err error
				for i, f := range frags {
					if err = d.DecodeFragment(b, regions[i].CopyBefore(f), i == len(frags)-1); err != nil {
						break
					}
				}
				if got := decodeOutcome(d, b, err); got != want {
					t.Fatalf("connection %d block %d split at %v:\n%s\nwant\n%s", ci, bi, sp, got, want)
				}
			}
		}
	}
}

// replayed returns a fresh decoder that has decoded blocks, so that its
// dynamic table is the one the next block expects, and an empty batch.
func replayed(blocks [][]byte) (*Decoder, *mdelem.Batch) {
	d := newCorpusDecoder(DefaultTableSize)
	b := mdelem.NewBatch(16, 256)
	for _, prev := range blocks {
		b.Reset()
		_ = d.Decode(b, prev)
	}
	b.Reset()
	return d, b
}

// placeAt copies b into region against its guard: ending at it ("before")
// or starting right after it ("after").
func placeAt(region *guardpage.Region, place string, b []byte) []byte {
	if place == "before" {
		return region.CopyBefore(b)
	}
	return region.CopyAfter(b)
}

// TestReadersAtGuard runs the integer and string readers on every prefix of
// encodings of integers and string literals, with the input ending at a
// guard page: truncated inputs must report truncation, reading nothing
// past their end.
func TestReadersAtGuard(t *testing.T) {
	region := guardpage.NewRegion(t, 1<<12)
	d := NewDecoder(DefaultTableSize)
	for _, v := range []uint64{0, 1, 30, 31, 126, 127, 128, 255, 16383, 1 << 20, maxInt, maxInt + 1, 1 << 40} {
		for _, n := range []uint{4, 5, 6, 7, 8} {
			enc := appendInt(nil, 0, n, v)
			for cut := 0; cut <= len(enc); cut++ {
				p := region.CopyBefore(enc[:cut])
				got, size, res := readInt(p, n)
				switch {
				case cut < len(enc) && res == intOK:
					t.Fatalf("readInt(%x, %d): %d from a truncated encoding", enc[:cut], n, got)
				case cut == len(enc) && v <= maxInt && (res != intOK || got != v || size != len(enc)):
					t.Fatalf("readInt(%x, %d) = %d, %d, %v; want %d", enc, n, got, size, res, v)
				case v > maxInt && res == intOK:
					t.Fatalf("readInt(%x, %d) = %d, over maxInt", enc[:cut], n, got)
				}
			}
		}
	}
	for n := 0; n <= 300; n++ {
		s := make([]byte, n)
		for i := range s {
			s[i] = byte('a' + i%26)
		}
		for _, huff := range []bool{false, true} {
			var first byte
			if huff {
				first = 0x80
			}
			enc := append(appendInt(nil, first, 7, uint64(n)), s...)
			for cut := 0; cut <= len(enc); cut++ {
				if n > 70 && cut < len(enc)-3 && cut > 4 {
					continue
				}
				p := region.CopyBefore(enc[:cut])
				raw, end, h, ok := d.readString(p, 0)
				if ok && (cut < len(enc) || string(raw) != string(s) || h != huff || end != len(enc)) {
					t.Fatalf("readString of %d bytes cut at %d: %q, %d, %v", n, cut, raw, end, h)
				}
				raw, end, h, need, err := d.readLongString(p, 0, 0)
				if cut == len(enc) && (err != nil || need != 0 || string(raw) != string(s) || h != huff || end != len(enc)) {
					t.Fatalf("readLongString of %d bytes: %q, %d, %v, need %d, %v", n, raw, end, h, need, err)
				}
				if cut < len(enc) && err == nil && need == 0 {
					t.Fatalf("readLongString of %d bytes cut at %d: no error and nothing needed", n, cut)
				}
			}
		}
	}
}

// TestDecodeFragmentFuncAtGuard decodes every connection with
// DecodeFragmentFunc, each block's values copied into slabs whose last
// value ends at a guard page, and compares the fields and the table with
// Decode's: the decoder copies into them, and the table keeps and hands
// back the kept bytes (indexed fields, eviction, the rings' growth),
// without writing or reading past them.
func TestDecodeFragmentFuncAtGuard(t *testing.T) {
	keptBack := 0 // fields whose value came back from the table as kept bytes
	guarded := 0  // values copied into a guarded slab
	for ci, conn := range guardConnections() {
		ref, dec := newCorpusDecoder(DefaultTableSize), newCorpusDecoder(DefaultTableSize)
		// probe decodes each block first, to measure what it cuts from
		// each run of slabs.
		probe := newCorpusDecoder(DefaultTableSize)
		seen := map[*byte]bool{} // guarded copies, by first byte: passed to fn yet?
		guard := func(s *slab, used int) {
			if used == 0 || used > keepSlabSize {
				return // nothing cut, or more than one slab
			}
			b := guardpage.Before(t, keepSlabSize)
			*s = slab{b: b, used: keepSlabSize - used}
			for i := s.used; i < keepSlabSize; i++ {
				seen[&b[i]] = false
			}
		}
		rb := mdelem.NewBatch(16, 256)
		var got [][2]string
		fn := func(f mdelem.Field) {
			got = append(got, [2]string{f.Name.String(), f.Value.String()})
			v := f.Value.UnsafeBytes()
			if f.Value.Atom() != nil || f.Value.IsBorrowed() || len(v) == 0 {
				return
			}
			passed, ok := seen[&v[0]]
			if ok && !passed {
				guarded++
			}
			if passed {
				keptBack++ // an indexed field, from the table
			}
			seen[&v[0]] = true
		}
		for bi, block := range conn {
			rb.Reset()
			got = got[:0]
			want := decodeOutcome(ref, rb, ref.Decode(rb, block))
			probe.keepSlab = keepSlab{}
			_ = probe.DecodeFragmentFunc(func(mdelem.Field) {}, block, true)
			guard(&dec.keepSlab.indexed, probe.keepSlab.indexed.used)
			guard(&dec.keepSlab.others, probe.keepSlab.others.used)
			err := dec.DecodeFragmentFunc(fn, block, true)
			if out := fmt.Sprintf("fields %q\nerr %v\ntable %q", got, err, tablePairs(dec)); out != want {
				t.Fatalf("connection %d block %d:\n%s\nwant\n%s", ci, bi, out, want)
			}
		}
	}
	if keptBack == 0 || guarded == 0 {
		t.Fatalf("%d indexed fields came back with a kept value, %d values were copied at a guard page", keptBack, guarded)
	}
}
