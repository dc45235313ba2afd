package hpack

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/metapack/metapack/internal/twin"
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
		name = huffmanContentKinds[r.IntN(len(huffmanContentKinds))].make(r, 1+r.IntN(20))
	} else {
		name = []byte(encTwinNames[r.IntN(len(encTwinNames))])
	}
	var value []byte
	if r.IntN(2) == 0 {
		value = pool[r.IntN(len(pool))]
	} else {
		value = huffmanContentKinds[r.IntN(len(huffmanContentKinds))].make(r, r.IntN(101))
	}
	var f mdelem.Field
	if r.IntN(2) == 0 {
		f = mdelem.From(mdelem.Borrowed(name), mdelem.Borrowed(value))
	} else {
		f = mdelem.From(mdelem.Owned(bytes.Clone(name)), mdelem.Owned(bytes.Clone(value)))
	}
	return f.WithSensitive(r.IntN(10) == 0)
}

// TestEncoderTwins encodes the same random sequence of batches, table size
// changes and resets with an Encoder and with one switched to the pure-Go
// twins through twin.UseSafeEncoder, and requires the same bytes from
// every block.
func TestEncoderTwins(t *testing.T) {
	if twin.UseSafeEncoder == nil || twin.HuffmanEncode == nil {
		t.Fatal("encoder_twin.go did not register the twins")
	}
	for seed := range uint64(20) {
		r := rand.New(rand.NewPCG(16, 100+seed))
		pool := make([][]byte, 12)
		for i := range pool {
			pool[i] = huffmanContentKinds[r.IntN(len(huffmanContentKinds))].make(r, r.IntN(80))
		}
		fast, safe := NewEncoder(DefaultTableSize), NewEncoder(DefaultTableSize)
		twin.UseSafeEncoder(safe)
		if !safe.safe || fast.safe {
			t.Fatal("twin.UseSafeEncoder did not switch the encoder to its twins")
		}
		var fastBuf, safeBuf []byte
		for block := range 300 {
			switch r.IntN(20) {
			case 0:
				v := uint32(r.IntN(5000))
				fast.SetMaxDynamicTableSize(v)
				safe.SetMaxDynamicTableSize(v)
			case 1:
				v := uint32(r.IntN(9000))
				fast.SetMaxDynamicTableSizeLimit(v)
				safe.SetMaxDynamicTableSizeLimit(v)
			case 2:
				fast.Reset()
				safe.Reset()
			}
			b := mdelem.NewBatch(0, 0)
			for range r.IntN(12) {
				b.Append(encTwinField(r, pool))
			}
			fastBuf = fast.AppendBlock(fastBuf[:0], b)
			safeBuf = safe.AppendBlock(safeBuf[:0], b)
			if !bytes.Equal(fastBuf, safeBuf) {
				t.Fatalf("seed %d block %d (%v): encoder %x, safe twin %x", seed, block, batchPairs(b), fastBuf, safeBuf)
			}
			if r.IntN(4) == 0 && b.Len() > 0 {
				// A field on its own, into a buffer without room.
				f := b.At(r.IntN(b.Len()))
				got, want := fast.AppendField(nil, f), safe.AppendField(nil, f)
				if !bytes.Equal(got, want) {
					t.Fatalf("seed %d block %d AppendField(%v): encoder %x, safe twin %x", seed, block, f, got, want)
				}
			}
		}
	}
}
