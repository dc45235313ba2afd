package hpack

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/metapack/metapack/internal/hcode"
	"github.com/metapack/metapack/internal/huffcontent"
	"github.com/metapack/metapack/mdelem"
)

// encTwinNames are the names the encoder twin tests draw from: static
// names, ones the default policy never indexes, and ones in no table.
var encTwinNames = []string{
	":path", ":authority", "content-type", "user-agent", "cookie", "authorization",
	"x-request-id", "x-trace", "grpc-status", "x-\n\r\x16", "x-\xff\x80",
}

// encTwinField returns a random field: a name from encTwinNames or a new
// one, a value from a small pool (so that fields repeat and hit the
// table) or new content of any kind and of up to 100 bytes (past the
// literal cache's minimum), borrowed or owned, sometimes sensitive.
func encTwinField(r *rand.Rand, pool [][]byte) mdelem.Field {
	var name []byte
	if r.IntN(8) == 0 {
		name = huffcontent.Kinds[r.IntN(len(huffcontent.Kinds))].Make(r, 1+r.IntN(20))
	} else {
		name = []byte(encTwinNames[r.IntN(len(encTwinNames))])
	}
	var value []byte
	if r.IntN(2) == 0 {
		value = pool[r.IntN(len(pool))]
	} else {
		value = huffcontent.Kinds[r.IntN(len(huffcontent.Kinds))].Make(r, r.IntN(101))
	}
	var f mdelem.Field
	if r.IntN(2) == 0 {
		f = mdelem.From(mdelem.Borrowed(name), mdelem.Borrowed(value))
	} else {
		f = mdelem.From(mdelem.Owned(bytes.Clone(name)), mdelem.Owned(bytes.Clone(value)))
	}
	return f.WithSensitive(r.IntN(10) == 0)
}

// TestEncoderTwins encodes a random sequence of batches, table size
// changes and resets, and checks every block with checkBlockTwin: the
// Encoder's Huffman coding must be its pure-Go twin's in every string.
func TestEncoderTwins(t *testing.T) {
	for seed := range uint64(20) {
		r := rand.New(rand.NewPCG(16, 100+seed))
		pool := make([][]byte, 12)
		for i := range pool {
			pool[i] = huffcontent.Kinds[r.IntN(len(huffcontent.Kinds))].Make(r, r.IntN(80))
		}
		e := NewEncoder(DefaultTableSize)
		var buf []byte
		for block := range 300 {
			switch r.IntN(20) {
			case 0:
				e.SetMaxDynamicTableSize(uint32(r.IntN(5000)))
			case 1:
				e.SetMaxDynamicTableSizeLimit(uint32(r.IntN(9000)))
			case 2:
				e.Reset()
			}
			b := mdelem.NewBatch(0, 0)
			for range r.IntN(12) {
				b.Append(encTwinField(r, pool))
			}
			buf = e.AppendBlock(buf[:0], b)
			if err := checkBlockTwin(buf); err != nil {
				t.Fatalf("seed %d block %d (%v): %x: %v", seed, block, batchPairs(b), buf, err)
			}
			if r.IntN(4) == 0 && b.Len() > 0 {
				// A field on its own, into a buffer without room.
				f := b.At(r.IntN(b.Len()))
				if got := e.AppendField(nil, f); checkBlockTwin(got) != nil {
					t.Fatalf("seed %d block %d AppendField(%v): %x: %v", seed, block, f, got, checkBlockTwin(got))
				}
			}
		}
	}
}

// FuzzEncodeTwins encodes the fuzzer's header lists ("name: value" lines,
// a blank line between lists, names starting with s sensitive), with
// table size changes between them where sizes says, and checks every
// block with checkBlockTwin.
func FuzzEncodeTwins(f *testing.F) {
	f.Add(":method: GET\n:path: /\nsecret: x\n\n:status: 200\n", byte(6))
	f.Fuzz(func(t *testing.T, text string, sizeSel byte) {
		e := NewEncoder(DefaultTableSize)
		b := mdelem.NewBatch(0, 0)
		var block []byte
		for i, list := range strings.Split(text, "\n\n") {
			if size, ok := fuzzSizeChange(sizeSel, i); ok {
				e.SetMaxDynamicTableSize(size)
			}
			block = e.AppendBlock(block[:0], fuzzBatch(b, list))
			if err := checkBlockTwin(block); err != nil {
				t.Fatalf("list %d %q: %x: %v", i, list, block, err)
			}
		}
	})
}

// FuzzTableSync encodes the fuzzer's lists as FuzzEncodeTwins does and
// decodes them under the fuzzer's header list limit; after every block
// the encoder's dynamic table and the decoder's must hold the same
// entries and size, also when the limit drops fields from a block.
func FuzzTableSync(f *testing.F) {
	f.Add(":method: GET\nx-a: 1\nx-b: 22\n\nx-a: 1\n", byte(3), uint16(64))
	f.Fuzz(func(t *testing.T, text string, sizeSel byte, listLimit uint16) {
		e, d := NewEncoder(DefaultTableSize), NewDecoder(DefaultTableSize)
		d.SetMaxHeaderListSize(int(listLimit))
		in, out := mdelem.NewBatch(0, 0), mdelem.NewBatch(0, 0)
		var block []byte
		for i, list := range strings.Split(text, "\n\n") {
			if size, ok := fuzzSizeChange(sizeSel, i); ok {
				e.SetMaxDynamicTableSize(size)
				d.SetAllowedMaxDynamicTableSize(size)
			}
			block = e.AppendBlock(block[:0], fuzzBatch(in, list))
			out.Reset()
			if err := d.Decode(out, block); err != nil && !IsStreamError(err) {
				t.Fatalf("list %d: %v", i, err)
			}
			encCheckTables(t, fmt.Sprintf("list %d", i), e, d)
		}
	})
}

// fuzzBatch resets b to the fields of list: "name: value" lines, names
// starting with s sensitive.
func fuzzBatch(b *mdelem.Batch, list string) *mdelem.Batch {
	b.Reset()
	for _, line := range strings.Split(list, "\n") {
		if line == "" {
			continue
		}
		name, value, _ := strings.Cut(line, ": ")
		b.Append(mdelem.From(mdelem.BorrowString(name), mdelem.BorrowString(value)).WithSensitive(strings.HasPrefix(name, "s")))
	}
	return b
}

// fuzzSizeChange returns the table size the fuzzer's sel sets before
// list i, if any.
func fuzzSizeChange(sel byte, i int) (uint32, bool) {
	sizes := []uint32{4096, 0, 32, 100, 256, 1024, 4096, 65536}
	if i == 0 || sel&(1<<(i%8)) == 0 {
		return 0, false
	}
	return sizes[(int(sel)+i)%len(sizes)], true
}

// checkBlockTwin walks an encoded block and checks each string in it
// against hcode.AppendEncodeSafe, the pure-Go twin of the Huffman
// encoder: a Huffman-coded string must be the twin's coding of what it
// decodes to, and shorter than that, and a raw string one that the twin
// does not code shorter. The representations do not depend on the coding,
// so this holds exactly when an Encoder on the twin sends the same block.
func checkBlockTwin(block []byte) error {
	for p := 0; p < len(block); {
		prefix := uint(4) // literals without indexing, never indexed
		switch b := block[p]; {
		case b&0x80 != 0:
			prefix = 7 // indexed
		case b&0xc0 == 0x40:
			prefix = 6 // incremental indexing
		case b&0xe0 == 0x20:
			prefix = 5 // size update
		}
		v, n, res := readInt(block[p:], prefix)
		if res != intOK {
			return fmt.Errorf("offset %d: bad integer", p)
		}
		p += n
		strs := 0
		switch {
		case prefix == 4 || prefix == 6:
			strs = 1
			if v == 0 {
				strs = 2
			}
		}
		for range strs {
			if p >= len(block) {
				return fmt.Errorf("offset %d: block ends before a string", p)
			}
			huff := block[p]&0x80 != 0
			l, n, res := readInt(block[p:], 7)
			if res != intOK || l > uint64(len(block)-p-n) {
				return fmt.Errorf("offset %d: bad string length", p)
			}
			p += n
			raw := block[p : p+int(l)]
			p += int(l)
			if !huff {
				if c := hcode.AppendEncodeSafe(nil, string(raw)); len(c) < len(raw) {
					return fmt.Errorf("raw %q, which the twin codes shorter: %x", raw, c)
				}
				continue
			}
			s, err := hcode.AppendDecodeSafe(nil, raw, math.MaxInt)
			if err != nil {
				return fmt.Errorf("Huffman string %x: %v", raw, err)
			}
			if c := hcode.AppendEncodeSafe(nil, string(s)); !bytes.Equal(c, raw) || len(c) >= len(s) {
				return fmt.Errorf("%q coded as %x, the twin codes it %x", s, raw, c)
			}
		}
	}
	return nil
}
