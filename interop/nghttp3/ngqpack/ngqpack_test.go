//go:build nghttp3

package ngqpack

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// lists returns n deterministic header lists that repeat names and
// values, so that an encoder with a table indexes and references them.
func lists(seed uint64, n int) [][]Field {
	r := rand.New(rand.NewPCG(seed, 1))
	names := []string{":method", ":path", "user-agent", "x-id", "cookie", "accept", "x-long"}
	var out [][]Field
	for range n {
		var l []Field
		for range 1 + r.IntN(8) {
			name := names[r.IntN(len(names))]
			value := "v" + strconv.Itoa(r.IntN(6))
			if name == "x-long" {
				value = strings.Repeat(value, 20+r.IntN(20))
			}
			l = append(l, Field{Name: name, Value: value, Sensitive: r.IntN(10) == 0})
		}
		out = append(out, l)
	}
	return out
}

// TestRoundTrip sends lists from nghttp3's encoder to its decoder, the
// decoder stream fed back after every section, and reads the decoder's
// newest entry back through Table.
func TestRoundTrip(t *testing.T) {
	for _, capacity := range []uint64{0, 256, 4096} {
		for _, blocked := range []uint64{0, 16, 100} {
			t.Run(fmt.Sprintf("cap=%d,blocked=%d", capacity, blocked), func(t *testing.T) {
				enc, err := NewEncoder(capacity)
				if err != nil {
					t.Fatal(err)
				}
				defer enc.Close()
				enc.SetMaxTableCapacity(capacity)
				enc.SetMaxBlockedStreams(blocked)
				dec, err := NewDecoder(capacity, blocked)
				if err != nil {
					t.Fatal(err)
				}
				defer dec.Close()
				var log []byte
				for i, l := range lists(capacity+blocked, 60) {
					id := int64(4 * i)
					sec, es, err := enc.Encode(id, l)
					if err != nil {
						t.Fatal(err)
					}
					log = append(log, es...)
					if err := dec.ReadEncoderStream(es); err != nil {
						t.Fatalf("section %d: %v", i, err)
					}
					got, isBlocked, err := dec.Decode(id, sec)
					if err != nil || isBlocked {
						t.Fatalf("section %d %x: blocked %v, %v", i, sec, isBlocked, err)
					}
					if !slices.Equal(got, l) {
						t.Fatalf("section %d: got %v, want %v", i, got, l)
					}
					if err := enc.ReadDecoderStream(dec.DecoderStream()); err != nil {
						t.Fatalf("section %d: %v", i, err)
					}
					if icnt := dec.InsertCount(); icnt > 0 {
						entries, err := Entries(log, capacity, icnt-1, icnt)
						if err != nil {
							t.Fatalf("section %d: %v", i, err)
						}
						if e := entries[0]; !slices.ContainsFunc(l, func(f Field) bool { return f.Name == e.Name && f.Value == e.Value }) && i == 0 {
							t.Fatalf("section %d: newest entry %v is not in the first list %v", i, e, l)
						}
					}
				}
				if capacity >= 256 && dec.InsertCount() == 0 {
					t.Errorf("nghttp3's encoder inserted nothing with capacity %d", capacity)
				}
			})
		}
	}
}

// TestBlockedResume delivers a section before the inserts it needs: it
// blocks, and Resume finishes it once Unblocked reports it.
func TestBlockedResume(t *testing.T) {
	enc, err := NewEncoder(4096)
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	enc.SetMaxTableCapacity(4096)
	enc.SetMaxBlockedStreams(16)
	dec, err := NewDecoder(4096, 16)
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	// nghttp3 inserts a field of a name it has a token for.
	l := []Field{{Name: "user-agent", Value: "one"}, {Name: "accept", Value: "two"}}
	sec, es, err := enc.Encode(4, l)
	if err != nil {
		t.Fatal(err)
	}
	if got, blocked, err := dec.Decode(4, sec); err != nil || !blocked || got != nil {
		t.Fatalf("before the inserts %x: section %x: %v, blocked %v, %v", es, sec, got, blocked, err)
	}
	if u := dec.Unblocked(); len(u) != 0 {
		t.Fatalf("unblocked %v before the inserts", u)
	}
	if err := dec.ReadEncoderStream(es); err != nil {
		t.Fatal(err)
	}
	if u := dec.Unblocked(); !slices.Equal(u, []int64{4}) {
		t.Fatalf("unblocked %v, want [4]", u)
	}
	got, blocked, err := dec.Resume(4)
	if err != nil || blocked || !slices.Equal(got, l) {
		t.Fatalf("resumed: %v, blocked %v, %v; want %v", got, blocked, err, l)
	}
}

// TestCorpus decodes the offline-interop files of ls-qpack's and
// nghttp3's encoders with nghttp3's decoder: stream N must give header
// set N-1 of the QIF.
func TestCorpus(t *testing.T) {
	dir := Shared(t, "qifs")
	for _, impl := range []string{"ls-qpack", "nghttp3"} {
		files, err := filepath.Glob(filepath.Join(dir, "encoded", "qpack-05", impl, "*.out.*"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no files (%v)", impl, err)
		}
		for _, f := range files {
			base := filepath.Base(f)
			t.Run(impl+"/"+base, func(t *testing.T) {
				qifName, params, _ := strings.Cut(base, ".out.")
				var capacity, blocked, ack uint64
				if _, err := fmt.Sscanf(params, "%d.%d.%d", &capacity, &blocked, &ack); err != nil {
					t.Fatalf("file name %s: %v", base, err)
				}
				sets, err := ReadQIF(filepath.Join(dir, "qifs", qifName+".qif"))
				if err != nil {
					t.Fatal(err)
				}
				recs, err := ReadRecords(f)
				if err != nil {
					t.Fatal(err)
				}
				if err := decodeFile(capacity, blocked, recs, sets); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

// decodeFile decodes recs with a fresh decoder and compares stream N with
// sets[N-1].
func decodeFile(capacity, maxBlocked uint64, recs []Record, sets [][]Field) error {
	dec, err := NewDecoder(capacity, maxBlocked)
	if err != nil {
		return err
	}
	defer dec.Close()
	done := 0
	check := func(id int64, got []Field) error {
		if id < 1 || int(id) > len(sets) {
			return fmt.Errorf("stream %d: the QIF has %d header sets", id, len(sets))
		}
		if want := sets[id-1]; !slices.Equal(got, want) {
			return fmt.Errorf("stream %d: got %v, want %v", id, got, want)
		}
		done++
		return nil
	}
	for _, r := range recs {
		if r.Stream == 0 {
			if err := dec.ReadEncoderStream(r.Data); err != nil {
				return err
			}
			for _, id := range dec.Unblocked() {
				got, blocked, err := dec.Resume(id)
				if err != nil || blocked {
					return fmt.Errorf("stream %d resumed: blocked %v, %v", id, blocked, err)
				}
				if err := check(id, got); err != nil {
					return err
				}
			}
			continue
		}
		id := int64(r.Stream)
		got, blocked, err := dec.Decode(id, r.Data)
		switch {
		case err != nil:
			return fmt.Errorf("stream %d: %v", id, err)
		case blocked:
			if uint64(len(dec.Blocked())) > maxBlocked {
				return fmt.Errorf("stream %d: %d sections blocked, at most %d allowed", id, len(dec.Blocked()), maxBlocked)
			}
		default:
			if err := check(id, got); err != nil {
				return err
			}
		}
		dec.DecoderStream()
	}
	if b := dec.Blocked(); len(b) > 0 {
		return fmt.Errorf("still blocked at the end: %v", b)
	}
	if done != len(sets) {
		return fmt.Errorf("%d sections decoded, the QIF has %d", done, len(sets))
	}
	return nil
}
