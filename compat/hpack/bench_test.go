package hpack_test

import (
	"bytes"
	"testing"

	"golang.org/x/net/http2/hpack"

	compat "github.com/metapack/metapack/compat/hpack"
	"github.com/metapack/metapack/internal/workload"
)

// benchLists is the synthetic gRPC workload: requests, responses and
// trailers of unary calls.
func benchLists() [][]hpack.HeaderField {
	var out [][]hpack.HeaderField
	for _, l := range workload.GRPC(300, 1) {
		fs := make([]hpack.HeaderField, len(l))
		for i, h := range l {
			fs[i] = hpack.HeaderField{Name: h.Name, Value: h.Value}
		}
		out = append(out, fs)
	}
	return out
}

// benchBlocks encodes the lists with x/net's Encoder, one block each, in
// order: decoding them in the same order keeps the tables in step.
func benchBlocks(lists [][]hpack.HeaderField) (blocks [][]byte, bytesIn int) {
	var buf bytes.Buffer
	enc := hpack.NewEncoder(&buf)
	for _, l := range lists {
		buf.Reset()
		for _, f := range l {
			enc.WriteField(f)
		}
		blocks = append(blocks, bytes.Clone(buf.Bytes()))
		bytesIn += buf.Len()
	}
	return blocks, bytesIn
}

// BenchmarkDecode decodes the whole corpus per iteration, with a new
// Decoder per pass (its cost is included), calling Write and Close per
// block as x/net's http2.Framer does.
func BenchmarkDecode(b *testing.B) {
	blocks, n := benchBlocks(benchLists())
	var sink int
	b.Run("impl=compat", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(n))
		for b.Loop() {
			d := compat.NewDecoder(4096, func(f compat.HeaderField) { sink += len(f.Value) })
			for _, blk := range blocks {
				if _, err := d.Write(blk); err != nil {
					b.Fatal(err)
				}
				if err := d.Close(); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("impl=xnet", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(n))
		for b.Loop() {
			d := hpack.NewDecoder(4096, func(f hpack.HeaderField) { sink += len(f.Value) })
			for _, blk := range blocks {
				if _, err := d.Write(blk); err != nil {
					b.Fatal(err)
				}
				if err := d.Close(); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// BenchmarkEncode encodes the whole corpus per iteration with a new
// Encoder per pass, one WriteField per field.
func BenchmarkEncode(b *testing.B) {
	lists := benchLists()
	_, n := benchBlocks(lists)
	var buf bytes.Buffer
	b.Run("impl=compat", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(n))
		for b.Loop() {
			e := compat.NewEncoder(&buf)
			for _, l := range lists {
				buf.Reset()
				for _, f := range l {
					e.WriteField(compat.HeaderField(f))
				}
			}
		}
	})
	b.Run("impl=xnet", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(n))
		for b.Loop() {
			e := hpack.NewEncoder(&buf)
			for _, l := range lists {
				buf.Reset()
				for _, f := range l {
					e.WriteField(f)
				}
			}
		}
	})
}
