//go:build nghttp3

package nghttp3

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/metapack/metapack/interop/nghttp3/ngqpack"
)

// record encodes lists with nghttp3's encoder, its decoder stream fed
// back from nghttp3's decoder after every section, as offline-interop
// records: each section after the encoder-stream bytes it needs, on
// streams 4, 8, 12...
func record(t *testing.T, capacity, blocked uint64, lists [][]Field) []ngqpack.Record {
	t.Helper()
	enc := newNgEncoder(t, capacity, blocked)
	dec := newNgDecoder(t, capacity, blocked)
	var recs []ngqpack.Record
	for i, l := range lists {
		id := uint64(4*i + 4) // stream 0 is the encoder stream's in records
		sec, es, err := enc.encode(id, l)
		if err != nil {
			t.Fatal(err)
		}
		if len(es) > 0 {
			recs = append(recs, ngqpack.Record{Stream: 0, Data: es})
			if err := dec.readEncoderStream(es); err != nil {
				t.Fatal(err)
			}
		}
		recs = append(recs, ngqpack.Record{Stream: id, Data: sec})
		if _, _, err := dec.decode(id, sec); err != nil {
			t.Fatal(err)
		}
		if err := enc.readDecoderStream(dec.decoderStream()); err != nil {
			t.Fatal(err)
		}
	}
	return recs
}

// mutate returns a copy of recs with one byte of one record changed, or
// one record cut short.
func mutate(r *rand.Rand, recs []ngqpack.Record) ([]ngqpack.Record, string) {
	out := slices.Clone(recs)
	for {
		i := r.IntN(len(out))
		d := slices.Clone(out[i].Data)
		if len(d) == 0 {
			continue
		}
		j := r.IntN(len(d))
		var what string
		switch r.IntN(4) {
		case 0:
			d = d[:j]
			what = fmt.Sprintf("record %d (stream %d) cut to %d bytes", i, out[i].Stream, j)
		case 1:
			d[j] ^= 1 << r.IntN(8)
			what = fmt.Sprintf("record %d (stream %d) byte %d flipped to %#x", i, out[i].Stream, j, d[j])
		default:
			d[j] = byte(r.IntN(256))
			what = fmt.Sprintf("record %d (stream %d) byte %d set to %#x", i, out[i].Stream, j, d[j])
		}
		out[i].Data = d
		return out, what
	}
}

// decodedAll plays recs on dec, returning every section's fields in
// order of completion and the first error.
func decodedAll(dec decoder, recs []ngqpack.Record) (map[uint64][]Field, error) {
	got := map[uint64][]Field{}
	for _, r := range recs {
		if r.Stream == 0 {
			if err := dec.readEncoderStream(r.Data); err != nil {
				return got, err
			}
			for _, id := range dec.unblocked() {
				f, _, err := dec.resume(id)
				if err != nil {
					return got, err
				}
				got[id] = f
			}
			continue
		}
		f, blocked, err := dec.decode(r.Stream, r.Data)
		if err != nil {
			return got, err
		}
		if !blocked {
			got[r.Stream] = f
		}
	}
	if dec.blockedCount() > 0 {
		return got, errBlockedAtEnd
	}
	return got, nil
}

// TestMutations decodes nghttp3's encoder's output, with one byte changed
// or one record cut, with both decoders: they must end the same way (both
// accept, or both fail with the same error code), unless allowed names an
// RFC 9204 reason, and where both accept, decode the same fields. The
// first mutation of each unexplained pair of outcomes is reported.
func TestMutations(t *testing.T) {
	for _, capacity := range []uint64{0, 256, 4096} {
		t.Run(fmt.Sprintf("cap=%d", capacity), func(t *testing.T) {
			recs := record(t, capacity, 100, genLists(capacity+7, 30))
			r := rand.New(rand.NewPCG(capacity, 11))
			seen := map[outcome]int{}
			explained := map[string]int{}
			unexplained := map[string]int{}
			for n := range 3000 {
				m, what := mutate(r, recs)
				ours, oursErr := decodedAll(newOurDecoder(capacity, 100), m)
				ng := newNgDecoder(t, capacity, 100)
				theirs, ngErr := decodedAll(ng, m)
				ng.Close()
				oc, nc := classify(oursErr, ourOutcome), classify(ngErr, ngOutcome)
				seen[oc]++
				switch {
				case oc == nc && oc == "ok" && !mapsEqual(ours, theirs):
					t.Errorf("mutation %d, %s: both accept, but decode differently:\nqpack.Decoder %v\nnghttp3 %v", n, what, ours, theirs)
				case oc == nc:
				case allowed(oursErr, ngErr, m, capacity) != "":
					explained[allowed(oursErr, ngErr, m, capacity)]++
				default:
					pair := string(oc) + " / " + string(nc)
					if unexplained[pair]++; unexplained[pair] == 1 {
						t.Errorf("mutation %d, %s: qpack.Decoder: %s (%v); nghttp3: %s (%v)", n, what, oc, oursErr, nc, ngErr)
					}
				}
			}
			t.Logf("%d records; qpack.Decoder's outcomes %v; differences explained %v; unexplained %v", len(recs), seen, explained, unexplained)
		})
	}
}

func mapsEqual(a, b map[uint64][]Field) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}
