package headerblock_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/metapack/metapack/headerblock"
	"github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/internal/story"
	"github.com/metapack/metapack/internal/workload"
	"github.com/metapack/metapack/mdelem"
	"golang.org/x/net/http2"
)

// cyclicWire encodes the lists over and over, cycles times, on one
// connection, each block cut into fragments of frag bytes (0: whole).
func cyclicWire(lists [][]story.Header, cycles, frag int) []byte {
	w := newConnWriter()
	for c := range cycles {
		for i, hs := range lists {
			pairs := make([]string, 0, 2*len(hs))
			for _, h := range hs {
				pairs = append(pairs, h.Name, h.Value)
			}
			w.headers(uint32(2*(c*len(lists)+i)+1), false, chunk(w.encode(pairs...), frag)...)
		}
	}
	return w.bytes()
}

// TestReadBatchAllocs measures ReadBatch in steady state, a block per run,
// against a loop that reads the same frames with ReadFrame alone: x/net's
// Framer allocates a frame struct per frame, and the Reader must add
// nothing to that.
func TestReadBatchAllocs(t *testing.T) {
	if pureGo {
		t.Skip("under purego, mdelem.Str.UnsafeString copies the bytes of every string that is not an atom")
	}
	grpc := workload.GRPC(30, 7)
	tests := []struct {
		name  string
		lists [][]story.Header
		frag  int
	}{
		{"one-request", grpc[:1], 0},
		{"one-request-continuations", grpc[:1], 4},
		{"grpc-calls", grpc, 0},
		{"browser", workload.Browser(20, 7), 0},
		{"browser-continuations", workload.Browser(20, 7), 20},
	}
	const runs = 200
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			warm := 3 * len(tt.lists)
			cycles := (warm+runs+1)/len(tt.lists) + 2
			wire := cyclicWire(tt.lists, cycles, tt.frag)

			fr := http2.NewFramer(nil, bytes.NewReader(wire))
			r := headerblock.NewReader(hpack.NewDecoder(4096))
			dst := mdelem.NewBatch(0, 0)
			readBlock := func() {
				f, err := fr.ReadFrame()
				if err != nil {
					panic(err)
				}
				dst.Reset()
				if trunc, err := r.ReadBatch(dst, fr, f.(*http2.HeadersFrame)); err != nil || trunc {
					panic(fmt.Sprint(trunc, err))
				}
			}
			base := http2.NewFramer(nil, bytes.NewReader(wire))
			framesOnly := func() {
				for {
					f, err := base.ReadFrame()
					if err != nil {
						panic(err)
					}
					switch f := f.(type) {
					case *http2.HeadersFrame:
						if f.HeadersEnded() {
							return
						}
					case *http2.ContinuationFrame:
						if f.HeadersEnded() {
							return
						}
					}
				}
			}
			for range warm {
				readBlock()
				framesOnly()
			}
			total := testing.AllocsPerRun(runs, readBlock)
			frames := testing.AllocsPerRun(runs, framesOnly)
			t.Logf("allocs per block: ReadFrame+ReadBatch %.2f, ReadFrame alone %.2f, the Reader's share %.2f", total, frames, total-frames)
			if total != frames {
				t.Errorf("the Reader allocates %.2f per block in steady state (total %.2f, frames alone %.2f)", total-frames, total, frames)
			}
		})
	}
}
