package headerblock_test

import (
	"bytes"
	"testing"

	"github.com/metapack/metapack/headerblock"
	"github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/internal/story"
	"github.com/metapack/metapack/internal/workload"
	"github.com/metapack/metapack/mdelem"
	"golang.org/x/net/http2"
	xhpack "golang.org/x/net/http2/hpack"
)

// BenchmarkReadHeaders reads a connection's pre-encoded frames, a whole
// corpus per op: ReadFrame and the block's read, with a fresh Framer and
// decoder per pass and the same bytes for every impl. batch is ReadBatch
// into a reused batch, meta is ReadMeta, xnet is x/net's Framer with
// ReadMetaHeaders, and frames is ReadFrame alone (no decoding), the floor
// the others share. Throughput counts frame bytes.
func BenchmarkReadHeaders(b *testing.B) {
	corpora := []struct {
		name  string
		lists [][]story.Header
	}{
		{"grpc", workload.GRPC(3000, 1)},
		{"browser", workload.Browser(1000, 1)},
	}
	for _, c := range corpora {
		wire := cyclicWire(c.lists, 1, 0)
		blocks := len(c.lists)
		for _, impl := range []string{"batch", "meta", "xnet", "frames"} {
			b.Run("corpus="+c.name+"/impl="+impl, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(wire)))
				br := bytes.NewReader(wire)
				dst := mdelem.NewBatch(64, 4096)
				for b.Loop() {
					br.Reset(wire)
					fr := http2.NewFramer(nil, br)
					var n int
					switch impl {
					case "batch":
						n = readBatchPass(fr, dst)
					case "meta":
						n = readMetaPass(fr)
					case "xnet":
						fr.ReadMetaHeaders = xhpack.NewDecoder(4096, nil)
						n = readMetaPass(fr)
					case "frames":
						fr.ReadMetaHeaders = nil
						n = readFramesPass(fr)
					}
					if n != blocks {
						b.Fatalf("read %d blocks, want %d", n, blocks)
					}
				}
			})
		}
	}
}

func readBatchPass(fr *http2.Framer, dst *mdelem.Batch) int {
	r := headerblock.NewReader(hpack.NewDecoder(4096))
	n := 0
	for {
		f, err := fr.ReadFrame()
		if err != nil {
			return n
		}
		dst.Reset()
		if _, err := r.ReadBatch(dst, fr, f.(*http2.HeadersFrame)); err != nil {
			return -1
		}
		n++
	}
}

// readMetaPass reads with ReadMeta, or with x/net's Framer when its
// ReadMetaHeaders is set.
func readMetaPass(fr *http2.Framer) int {
	var r *headerblock.Reader
	if fr.ReadMetaHeaders == nil {
		r = headerblock.NewReader(hpack.NewDecoder(4096))
	}
	n := 0
	for {
		f, err := fr.ReadFrame()
		if err != nil {
			return n
		}
		if r != nil {
			if _, err := r.ReadMeta(fr, f.(*http2.HeadersFrame)); err != nil {
				return -1
			}
		} else if _, ok := f.(*http2.MetaHeadersFrame); !ok {
			return -1
		}
		n++
	}
}

func readFramesPass(fr *http2.Framer) int {
	n := 0
	for {
		if _, err := fr.ReadFrame(); err != nil {
			return n
		}
		n++
	}
}
