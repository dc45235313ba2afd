package hpack

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/metapack/metapack/internal/guardpage"
	"github.com/metapack/metapack/internal/huffcontent"
	"github.com/metapack/metapack/mdelem"
)

// TestEncoderAtGuard encodes fields whose name and value bytes end at a
// guard page, and again start right after one, for every length from 0 to
// 70 of every kind of content: owned bytes through AppendBlock (the batch
// keeps them in place) and borrowed bytes through AppendField (nothing
// copies them first). Each block has the field twice, indexed, then once
// never-indexed, so the encoder hashes the guarded bytes (names in no
// table, values; the literal cache from 48 bytes), copies them into its
// table, and compares them with its table copies. Each block goes into an
// output buffer that ends at a guard page, with the least room in which
// the encoder does not reallocate, and with 8 bytes more; the bytes must
// match those of an encoder given heap copies.
func TestEncoderAtGuard(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 6))
	names := guardpage.NewRegion(t, 1<<12)
	values := guardpage.NewRegion(t, 1<<12)
	out := guardpage.NewRegion(t, 1<<13)
	always := func(mdelem.Field) indexing { return indexIncremental }
	ref := policyEncoder{NewEncoder(DefaultTableSize), always}
	e := policyEncoder{NewEncoder(DefaultTableSize), always}
	for _, kind := range huffcontent.Kinds {
		for n := 0; n <= 70; n++ {
			name := append([]byte("x-"), kind.Make(r, n)...)
			value := kind.Make(r, n)
			fields := func(name, value []byte, owned bool) []mdelem.Field {
				var f mdelem.Field
				if owned {
					f = mdelem.From(mdelem.Owned(name), mdelem.Owned(value))
				} else {
					f = mdelem.From(mdelem.Borrowed(name), mdelem.Borrowed(value))
				}
				return []mdelem.Field{f, f, f.WithSensitive(true)}
			}
			encode := func(e policyEncoder, dst []byte, fs []mdelem.Field, owned bool) []byte {
				e.Reset()
				if owned {
					b := mdelem.NewBatch(len(fs), 0)
					for _, f := range fs {
						b.Append(f)
					}
					return e.AppendBlock(dst, b)
				}
				for _, f := range fs {
					dst = e.AppendField(dst, f)
				}
				return dst
			}
			for _, owned := range []bool{true, false} {
				want := encode(ref, nil, fields(bytes.Clone(name), bytes.Clone(value), owned), owned)
				for _, before := range []bool{true, false} {
					var gn, gv []byte
					if before {
						gn, gv = names.CopyBefore(name), values.CopyBefore(value)
					} else {
						gn, gv = names.CopyAfter(name), values.CopyAfter(value)
					}
					fs := fields(gn, gv, owned)
					// try encodes into a buffer of room bytes that ends at
					// the guard, and reports whether the encoder kept it.
					try := func(room int) bool {
						buf := out.Before(room)
						got := encode(e, buf[:0], fs, owned)
						if !bytes.Equal(got, want) {
							t.Fatalf("%s n=%d owned=%v before=%v room=%d: %x, want %x", kind.Name, n, owned, before, room, got, want)
						}
						return &got[:1][0] == &buf[:1][0]
					}
					// The least room that the encoder keeps: it asks for
					// room for the worst case before each string, so this
					// is where its writes come closest to the guard.
					lo, hi := len(want), len(want)+4*len(name)+4*len(value)+64
					if !try(hi) {
						t.Fatalf("%s n=%d: reallocated with %d bytes of room", kind.Name, n, hi)
					}
					for lo < hi {
						if mid := (lo + hi) / 2; try(mid) {
							hi = mid
						} else {
							lo = mid + 1
						}
					}
					try(lo)
					try(lo + 8)
				}
			}
		}
	}
}
