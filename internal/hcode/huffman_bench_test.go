package hcode

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	xhpack "golang.org/x/net/http2/hpack"
)

// huffmanBenchInputs are the inputs of the Huffman benchmarks.
func huffmanBenchInputs() []struct{ name, s string } {
	rng := rand.New(rand.NewPCG(3, 4))
	random := make([]byte, 256)
	for i := range random {
		random[i] = byte(rng.UintN(256))
	}
	return []struct{ name, s string }{
		{"short", "application/grpc"},
		{"useragent", "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36"},
		{"cookie", "_ga=GA1.2.1234567890.1699999999; session_id=4f9a2c1e8b7d6a5f3e2d1c0b9a8f7e6d; theme=dark; lang=en-US; _gid=GA1.2.987654321.1700000000"},
		{"random", string(random)},
	}
}

// huffmanDecodeImpls and huffmanEncodeImpls are our Huffman kernels as the
// benchmarks name them: the unsafe ones and their pure-Go twins. (Under
// -tags purego both are the twins.)
var (
	huffmanDecodeImpls = []struct {
		name   string
		decode func(dst, src []byte, maxLen int) ([]byte, error)
	}{{"unsafe", AppendDecode}, {"safe", AppendDecodeSafe}}
	huffmanEncodeImpls = []struct {
		name   string
		encode func(dst []byte, s string) []byte
	}{{"unsafe", AppendEncode}, {"safe", AppendEncodeSafe}}
)

func BenchmarkHuffmanDecode(b *testing.B) {
	for _, in := range huffmanBenchInputs() {
		enc := AppendHuffmanString(nil, in.s)
		for _, impl := range huffmanDecodeImpls {
			b.Run("input="+in.name+"/impl="+impl.name, func(b *testing.B) {
				b.SetBytes(int64(len(in.s)))
				b.ReportAllocs()
				dst := make([]byte, 0, 2*len(in.s)+64)
				for b.Loop() {
					var err error
					dst, err = impl.decode(dst[:0], enc, math.MaxInt)
					if err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		b.Run("input="+in.name+"/impl=xnet", func(b *testing.B) {
			b.SetBytes(int64(len(in.s)))
			b.ReportAllocs()
			var buf bytes.Buffer
			buf.Grow(2*len(in.s) + 64)
			for b.Loop() {
				buf.Reset()
				if _, err := xhpack.HuffmanDecode(&buf, enc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkHuffmanDecodeVaried decodes 512 different random 256-byte
// strings in turn. BenchmarkHuffmanDecode's random input is one string,
// decoded over and over, and the branch predictor learns its branches on
// the code lengths; here it cannot, as with binary values in real traffic.
func BenchmarkHuffmanDecodeVaried(b *testing.B) {
	rng := rand.New(rand.NewPCG(9, 9))
	var encs [][]byte
	for range 512 {
		raw := make([]byte, 256)
		for i := range raw {
			raw[i] = byte(rng.UintN(256))
		}
		encs = append(encs, AppendHuffmanString(nil, string(raw)))
	}
	for _, impl := range huffmanDecodeImpls {
		b.Run("input=random512/impl="+impl.name, func(b *testing.B) {
			b.SetBytes(256)
			b.ReportAllocs()
			dst := make([]byte, 0, 2*256+64)
			k := 0
			for b.Loop() {
				var err error
				dst, err = impl.decode(dst[:0], encs[k%len(encs)], math.MaxInt)
				if err != nil {
					b.Fatal(err)
				}
				k++
			}
		})
	}
	b.Run("input=random512/impl=xnet", func(b *testing.B) {
		b.SetBytes(256)
		b.ReportAllocs()
		var buf bytes.Buffer
		buf.Grow(2*256 + 64)
		k := 0
		for b.Loop() {
			buf.Reset()
			if _, err := xhpack.HuffmanDecode(&buf, encs[k%len(encs)]); err != nil {
				b.Fatal(err)
			}
			k++
		}
	})
}

func BenchmarkHuffmanEncode(b *testing.B) {
	for _, in := range huffmanBenchInputs() {
		for _, impl := range huffmanEncodeImpls {
			b.Run("input="+in.name+"/impl="+impl.name, func(b *testing.B) {
				b.SetBytes(int64(len(in.s)))
				b.ReportAllocs()
				dst := make([]byte, 0, 4*len(in.s)+64)
				for b.Loop() {
					dst = impl.encode(dst[:0], in.s)
				}
			})
		}
		b.Run("input="+in.name+"/impl=xnet", func(b *testing.B) {
			b.SetBytes(int64(len(in.s)))
			b.ReportAllocs()
			dst := make([]byte, 0, 4*len(in.s)+64)
			for b.Loop() {
				dst = xhpack.AppendHuffmanString(dst[:0], in.s)
			}
		})
	}
}
