package headerblock_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/metapack/metapack/headerblock"
	"github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/internal/workload"
	"github.com/metapack/metapack/mdelem"
	"golang.org/x/net/http2"
	xhpack "golang.org/x/net/http2/hpack"
)

// TestWriteBlockSplit writes blocks of every length around the frame size
// and checks the frames: payloads at most the (clamped) frame size, all
// but the last full, END_STREAM on the HEADERS frame only, END_HEADERS on
// the last frame only, and the payloads joined giving the block back.
func TestWriteBlockSplit(t *testing.T) {
	tests := []struct {
		frameSize uint32
		effective int
	}{
		{0, 16384}, {1, 16384}, {16383, 16384}, {16384, 16384}, {16385, 16385},
		{20000, 20000}, {1<<24 - 1, 1<<24 - 1}, {1 << 24, 1<<24 - 1}, {1<<32 - 1, 1<<24 - 1},
	}
	for _, tt := range tests {
		n := tt.effective
		lengths := []int{0, 1, n - 1, n, n + 1}
		if n < 1<<20 {
			lengths = append(lengths, 2*n-1, 2*n, 2*n+1, 3*n+7)
		}
		for _, length := range lengths {
			for _, endStream := range []bool{false, true} {
				t.Run(fmt.Sprintf("frame=%d/len=%d/end=%v", tt.frameSize, length, endStream), func(t *testing.T) {
					block := make([]byte, length)
					for i := range block {
						block[i] = byte(i * 7)
					}
					var buf bytes.Buffer
					if err := headerblock.WriteBlock(http2.NewFramer(&buf, nil), 5, endStream, block, tt.frameSize); err != nil {
						t.Fatal(err)
					}
					checkFrames(t, buf.Bytes(), 5, endStream, block, n)
				})
			}
		}
	}
}

// checkFrames reads the frames of one block and checks them as
// TestWriteBlockSplit says.
func checkFrames(t *testing.T, wire []byte, stream uint32, endStream bool, block []byte, n int) {
	t.Helper()
	fr := http2.NewFramer(nil, bytes.NewReader(wire))
	var got []byte
	want := max(1, (len(block)+n-1)/n)
	for i := 0; i < want; i++ {
		f, err := fr.ReadFrame()
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		h := f.Header()
		if h.StreamID != stream {
			t.Errorf("frame %d: stream %d, want %d", i, h.StreamID, stream)
		}
		last := i == want-1
		var frag []byte
		switch f := f.(type) {
		case *http2.HeadersFrame:
			if i != 0 {
				t.Fatalf("frame %d: HEADERS after the first", i)
			}
			if f.StreamEnded() != endStream {
				t.Errorf("HEADERS: END_STREAM %v, want %v", f.StreamEnded(), endStream)
			}
			if f.HeadersEnded() != last {
				t.Errorf("HEADERS: END_HEADERS %v on frame %d of %d", f.HeadersEnded(), i, want)
			}
			frag = f.HeaderBlockFragment()
		case *http2.ContinuationFrame:
			if i == 0 {
				t.Fatal("frame 0 is a CONTINUATION")
			}
			if h.Flags&^http2.FlagContinuationEndHeaders != 0 {
				t.Errorf("frame %d: CONTINUATION flags %v", i, h.Flags)
			}
			if f.HeadersEnded() != last {
				t.Errorf("frame %d of %d: END_HEADERS %v", i, want, f.HeadersEnded())
			}
			frag = f.HeaderBlockFragment()
		default:
			t.Fatalf("frame %d: %T", i, f)
		}
		if len(frag) > n || !last && len(frag) != n {
			t.Errorf("frame %d of %d: payload %d bytes, frame size %d", i, want, len(frag), n)
		}
		got = append(got, frag...)
	}
	if _, err := fr.ReadFrame(); err == nil {
		t.Error("a frame after the block")
	}
	if !bytes.Equal(got, block) {
		t.Errorf("frames carry %d bytes that differ from the block's %d", len(got), len(block))
	}
}

// roundTripLists are gRPC lists and a list with a value large enough to
// need CONTINUATION frames at the smallest frame size.
func roundTripLists() [][][2]string {
	var out [][][2]string
	for _, hs := range workload.GRPC(60, 3) {
		var l [][2]string
		for _, h := range hs {
			l = append(l, [2]string{h.Name, h.Value})
		}
		out = append(out, l)
	}
	big := [][2]string{{":status", "200"}, {"x-big", strings.Repeat("0123456789", 5000)}, {"x-after", "a"}}
	return append(out, big, big, out[0])
}

func batchOf(l [][2]string) *mdelem.Batch {
	b := mdelem.NewBatch(len(l), 0)
	for _, p := range l {
		b.Append(mdelem.From(mdelem.BorrowString(p[0]), mdelem.BorrowString(p[1])))
	}
	return b
}

// TestWriteBatchRoundTrip writes lists with a Writer and reads them back
// with a Reader and with x/net's Framer, at several frame sizes.
func TestWriteBatchRoundTrip(t *testing.T) {
	lists := roundTripLists()
	for _, frameSize := range []uint32{0, 16384, 20000, 1 << 20} {
		for _, reader := range []string{"reader", "xnet"} {
			t.Run(fmt.Sprintf("frame=%d/%s", frameSize, reader), func(t *testing.T) {
				var buf bytes.Buffer
				wfr := http2.NewFramer(&buf, nil)
				w := headerblock.NewWriter(nil)
				w.SetMaxFrameSize(frameSize)
				for i, l := range lists {
					if err := w.WriteBatch(wfr, uint32(2*i+1), i%2 == 1, batchOf(l)); err != nil {
						t.Fatal(err)
					}
				}
				rfr := http2.NewFramer(nil, bytes.NewReader(buf.Bytes()))
				r := headerblock.NewReader(nil)
				if reader == "xnet" {
					rfr.ReadMetaHeaders = xhpack.NewDecoder(4096, nil)
				}
				dst := mdelem.NewBatch(0, 0)
				for i, l := range lists {
					f, err := rfr.ReadFrame()
					if err != nil {
						t.Fatalf("list %d: %v", i, err)
					}
					var got [][2]string
					var ended bool
					switch f := f.(type) {
					case *http2.MetaHeadersFrame:
						for _, hf := range f.Fields {
							got = append(got, [2]string{hf.Name, hf.Value})
						}
						ended = f.StreamEnded()
					case *http2.HeadersFrame:
						dst.Reset()
						if trunc, err := r.ReadBatch(dst, rfr, f); err != nil || trunc {
							t.Fatalf("list %d: truncated %v, %v", i, trunc, err)
						}
						for _, fl := range dst.All() {
							got = append(got, [2]string{fl.Name.String(), fl.Value.String()})
						}
						ended = f.StreamEnded()
					default:
						t.Fatalf("list %d: %T", i, f)
					}
					if fmt.Sprint(got) != fmt.Sprint(l) || ended != (i%2 == 1) {
						t.Fatalf("list %d: got %d fields (ended %v), want %d", i, len(got), ended, len(l))
					}
				}
			})
		}
	}
}

// TestWriteBatchListSize checks that a list over the peer's limit is
// refused with a *ListSizeError, nothing written and the encoder
// unchanged, so that the next block decodes at the peer.
func TestWriteBatchListSize(t *testing.T) {
	small := [][2]string{{":status", "200"}, {"x-a", "b"}}
	tests := []struct {
		name  string
		list  [][2]string
		limit uint32
		over  bool
	}{
		{"no-limit", [][2]string{{"x-big", strings.Repeat("v", 100000)}}, 0, false},
		{"at-limit", small, uint32(batchOf(small).Size()), false},
		{"one-over", small, uint32(batchOf(small).Size()) - 1, true},
		{"new-names", [][2]string{{"x-new", "value"}, {"x-other", "v2"}}, 40, true},
		{"empty", nil, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			wfr := http2.NewFramer(&buf, nil)
			w := headerblock.NewWriter(hpack.NewEncoder(4096))
			// Fill the encoder's table first; ref follows what it is sent.
			ref := hpack.NewEncoder(4096)
			first := batchOf([][2]string{{"x-first", "1"}})
			if err := w.WriteBatch(wfr, 1, false, first); err != nil {
				t.Fatal(err)
			}
			ref.AppendBlock(nil, first)
			w.SetMaxHeaderListSize(tt.limit)
			before := buf.Len()
			b := batchOf(tt.list)
			err := w.WriteBatch(wfr, 3, false, b)
			checkErr := headerblock.CheckListSize(b, tt.limit)
			var lse *headerblock.ListSizeError
			if !tt.over {
				if err != nil || checkErr != nil {
					t.Fatalf("WriteBatch %v, CheckListSize %v; want no error", err, checkErr)
				}
				return
			}
			if !errors.As(err, &lse) || lse.Size != b.Size() || lse.Limit != tt.limit || lse.Error() == "" {
				t.Fatalf("WriteBatch: %v, want a ListSizeError{%d, %d}", err, b.Size(), tt.limit)
			}
			if !errors.As(checkErr, &lse) {
				t.Errorf("CheckListSize: %v", checkErr)
			}
			if buf.Len() != before {
				t.Errorf("refused list wrote %d bytes", buf.Len()-before)
			}
			// The next block, indexing the table's entry, reads fine, and
			// is what an encoder that never saw the refused list sends.
			w.SetMaxHeaderListSize(0)
			next := batchOf([][2]string{{"x-first", "1"}, {"x-c", "d"}})
			if err := w.WriteBatch(wfr, 5, true, next); err != nil {
				t.Fatal(err)
			}
			rfr := http2.NewFramer(nil, bytes.NewReader(buf.Bytes()))
			r := headerblock.NewReader(nil)
			dst := mdelem.NewBatch(0, 0)
			want := ref.AppendBlock(nil, next)
			for i := range 2 {
				f, err := rfr.ReadFrame()
				if err != nil {
					t.Fatal(err)
				}
				dst.Reset()
				if i == 1 && !bytes.Equal(f.(*http2.HeadersFrame).HeaderBlockFragment(), want) {
					t.Errorf("encoder table changed: next block %x, want %x", f.(*http2.HeadersFrame).HeaderBlockFragment(), want)
				}
				if _, err := r.ReadBatch(dst, rfr, f.(*http2.HeadersFrame)); err != nil {
					t.Fatalf("block %d: %v", i, err)
				}
			}
			if f, ok := dst.GetString("x-first"); !ok || f.Value.String() != "1" || dst.Len() != 2 {
				t.Errorf("next block read as %d fields", dst.Len())
			}
		})
	}
}
