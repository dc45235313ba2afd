package qpack

import (
	"fmt"
	"testing"

	"github.com/metapack/metapack/intern"
	"github.com/metapack/metapack/mdelem"
)

// TestSteadyStateAllocs: once buffers and tables have grown, encoding a
// section, reading the encoder stream, decoding the section and both
// decoder-stream directions allocate nothing, with and without a dynamic
// table and with an interner.
func TestSteadyStateAllocs(t *testing.T) {
	if testing.CoverMode() != "" || raceEnabled {
		t.Skip("allocation counts are off under -cover and -race")
	}
	if pureGo {
		t.Skip("under purego, mdelem.Str.UnsafeString copies the bytes of every string that is not an atom")
	}
	for _, capacity := range []uint64{0, 4096} {
		t.Run(fmt.Sprint("capacity=", capacity), func(t *testing.T) {
			enc := NewEncoder()
			enc.SetPeerSettings(capacity, 16)
			dec := NewDecoder(capacity, 16)
			dec.SetInterner(intern.New(intern.Limits{}))
			in, out := mdelem.NewBatch(16, 1024), mdelem.NewBatch(16, 1024)
			sec, es, ds := make([]byte, 0, 4096), make([]byte, 0, 4096), make([]byte, 0, 64)
			stream := uint64(0)
			// The batch is built once: under purego BorrowString copies.
			in.Append(mdelem.From(mdelem.BorrowString(":method"), mdelem.BorrowString("GET")))
			in.Append(mdelem.From(mdelem.BorrowString(":path"), mdelem.BorrowString("/a/b/c?q=1")))
			in.Append(mdelem.From(mdelem.BorrowString(":authority"), mdelem.BorrowString("www.example.com")))
			in.Append(mdelem.From(mdelem.BorrowString("user-agent"), mdelem.BorrowString("Mozilla/5.0 (X11; Linux x86_64)")))
			in.Append(mdelem.From(mdelem.BorrowString("x-request-id"), mdelem.BorrowString("0123456789abcdef")))
			in.Append(mdelem.From(mdelem.BorrowString("x-custom-name"), mdelem.BorrowString("v")))
			in.Append(mdelem.From(mdelem.BorrowString("authorization"), mdelem.BorrowString("Bearer xyz")))
			run := func() {
				sec, es = enc.AppendSection(sec[:0], es[:0], stream, in)
				if err := dec.WriteEncoderStream(es); err != nil {
					t.Fatal(err)
				}
				out.Reset()
				if err := dec.Decode(out, stream, sec); err != nil {
					t.Fatal(err)
				}
				ds = dec.AppendDecoderStream(ds[:0])
				if err := enc.WriteDecoderStream(ds); err != nil {
					t.Fatal(err)
				}
				stream += 4
			}
			for range 100 {
				run()
			}
			if n := testing.AllocsPerRun(200, run); n != 0 {
				t.Errorf("%v allocations per section", n)
			}
		})
	}
}
