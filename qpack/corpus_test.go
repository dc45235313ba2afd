package qpack_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/metapack/metapack/internal/qif"
	"github.com/metapack/metapack/qpack"
)

// The offline-interop corpus (github.com/qpackers/qifs) is read from
// ../shared/qifs beside the checkout, or from $QIFS; without it these tests
// skip with qif.SkipMessage. Its encoders' files are named
// <qif>.out.<capacity>.<blocked>.<ack> and number their streams 1 to N, one a
// header set in the QIF's order: stream N holds set N-1.

// readQIF returns the header sets of the corpus's QIF name (without .qif).
func readQIF(tb testing.TB, name string) [][]qif.Field {
	tb.Helper()
	data, err := os.ReadFile(qif.Path(tb, "qifs", name+".qif"))
	if err != nil {
		tb.Fatal(err)
	}
	sets, err := qif.Parse(data)
	if err != nil {
		tb.Fatalf("%s.qif: %v", name, err)
	}
	return sets
}

// readRecords returns the records of the encoder's output at path.
func readRecords(tb testing.TB, path string) []qif.Record {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	recs, err := qif.ParseRecords(data)
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return recs
}

// mustConfig parses a "<capacity>.<max blocked>.<ack mode>" setting.
func mustConfig(tb testing.TB, s string) qif.Config {
	tb.Helper()
	cfg, err := qif.ParseConfig(s)
	if err != nil {
		tb.Fatal(err)
	}
	return cfg
}

// encodeRecords encodes sets under cfg (qif.Encode) and returns the
// records it wrote.
func encodeRecords(tb testing.TB, sets [][]qif.Field, cfg qif.Config) []qif.Record {
	tb.Helper()
	out, err := qif.Encode(sets, cfg)
	if err != nil {
		tb.Fatal(err)
	}
	recs, err := qif.ParseRecords(out)
	if err != nil {
		tb.Fatal(err)
	}
	return recs
}

// checkSets reports how got, header sets by stream ID, differs from want
// with stream ids[i] holding want[i].
func checkSets(tb testing.TB, got map[uint64][]qif.Field, want [][]qif.Field, ids []uint64) {
	tb.Helper()
	if len(got) != len(want) {
		tb.Errorf("%d streams decoded, want %d", len(got), len(want))
	}
	bad := 0
	for i, set := range want {
		g, ok := got[ids[i]]
		if !ok {
			tb.Errorf("stream %d (set %d): not decoded", ids[i], i)
		} else if diff := cmp.Diff(set, g); diff != "" {
			tb.Errorf("stream %d (set %d) (-want +got):\n%s", ids[i], i, diff)
		} else {
			continue
		}
		if bad++; bad == 5 {
			tb.Fatal("too many differences")
		}
	}
}

// seq returns the stream IDs 1 to n.
func seq(n int) []uint64 {
	ids := make([]uint64, n)
	for i := range ids {
		ids[i] = uint64(i + 1)
	}
	return ids
}

// TestQIFDecodeCorpus decodes every file of ls-qpack's and nghttp3's
// encoders in encoded/qpack-05, each with the settings its name gives, and
// checks it field by field against its QIF.
func TestQIFDecodeCorpus(t *testing.T) {
	root := qif.Path(t, "encoded", "qpack-05")
	n := 0
	for _, impl := range []string{"ls-qpack", "nghttp3"} {
		files, _ := filepath.Glob(filepath.Join(root, impl, "*.out.*"))
		for _, f := range files {
			name, cfg, err := qif.ParseName(f)
			if err != nil {
				t.Errorf("%s: %v", f, err)
				continue
			}
			n++
			t.Run(impl+"/"+filepath.Base(f), func(t *testing.T) {
				want := readQIF(t, name)
				got, err := qif.Decode(readRecords(t, f), cfg)
				if err != nil {
					t.Fatal(err)
				}
				checkSets(t, got, want, seq(len(want)))
			})
		}
	}
	if n != 192 {
		t.Errorf("%d files under ls-qpack/ and nghttp3/, want 192 (6 QIFs at 16 settings each)", n)
	}
}

// rfc9204AppendixB is what RFC 9204 Appendix B's examples decode to: B.1 on
// stream 4, B.2 on stream 8, and B.4 on stream 12 (B.3 and B.5 have no
// field section).
var rfc9204AppendixB = [][]qif.Field{
	{{Name: ":path", Value: "/index.html"}},
	{{Name: ":authority", Value: "www.example.com"}, {Name: ":path", Value: "/sample/path"}},
	{{Name: ":authority", Value: "www.example.com"}, {Name: ":path", Value: "/"}, {Name: "custom-key", Value: "custom-value"}},
}

// TestQIFDecodeExamples decodes the corpus's two files of worked examples.
// examples/examples.out.220.100.1 holds RFC 9204 Appendix B's encoder-stream
// bytes and sections (streams 4, 8 and 12), which have no QIF: the fields
// are the RFC's. draft-examples.out is an earlier draft's version of them
// (:authority www.ietf.org, a table of capacity 170, a Duplicate and an
// insert no section uses), whose name gives no settings: it decodes to
// draft-examples.qif (streams 4, 8, 12, as its comments say) for any
// capacity of 170 or more and needs no blocked stream, since each section
// comes after the inserts it uses; it is decoded at 170, 220 and 4096, which
// give different MaxEntries for its Required Insert Counts (RFC 9204 section
// 4.5.1.1).
func TestQIFDecodeExamples(t *testing.T) {
	root := qif.Path(t, "encoded", "qpack-05")
	tests := []struct {
		file string
		cfg  qif.Config
		qif  string // "" for rfc9204AppendixB
	}{
		{"examples/examples.out.220.100.1", qif.Config{Capacity: 220, Blocked: 100}, ""},
		{"examples/examples.out.220.100.1", qif.Config{Capacity: 4096, Blocked: 0}, ""},
		{"draft-examples.out", qif.Config{Capacity: 170, Blocked: 0}, "draft-examples"},
		{"draft-examples.out", qif.Config{Capacity: 220, Blocked: 0}, "draft-examples"},
		{"draft-examples.out", qif.Config{Capacity: 4096, Blocked: 100}, "draft-examples"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/capacity=%d,blocked=%d", tt.file, tt.cfg.Capacity, tt.cfg.Blocked), func(t *testing.T) {
			want := rfc9204AppendixB
			if tt.qif != "" {
				want = readQIF(t, tt.qif)
			}
			got, err := qif.Decode(readRecords(t, filepath.Join(root, tt.file)), tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			checkSets(t, got, want, []uint64{4, 8, 12})
		})
	}
	// Below 170 the draft's Set Dynamic Table Capacity is over our maximum
	// (RFC 9204 section 4.3.1).
	_, err := qif.Decode(readRecords(t, filepath.Join(root, "draft-examples.out")), qif.Config{Capacity: 169})
	var qe *qpack.Error
	if !errors.As(err, &qe) || qe.Code != qpack.ErrCodeEncoderStream {
		t.Errorf("draft-examples.out at capacity 169: error %v, want a *qpack.Error with ErrCodeEncoderStream", err)
	}
}

// delayEncoderStream returns recs with each encoder-stream record moved
// after the next delay sections, so that the sections that need it are
// blocked until it comes.
func delayEncoderStream(recs []qif.Record, delay int) []qif.Record {
	type held struct {
		rec  qif.Record
		left int
	}
	var out []qif.Record
	var queue []held
	for _, r := range recs {
		if r.StreamID == qif.EncoderStream {
			queue = append(queue, held{r, delay})
			continue
		}
		out = append(out, r)
		for i := range queue {
			queue[i].left--
		}
		for len(queue) > 0 && queue[0].left <= 0 {
			out = append(out, queue[0].rec)
			queue = queue[1:]
		}
	}
	for _, h := range queue {
		out = append(out, h.rec)
	}
	return out
}

// TestQIFDecodeBlocked decodes ls-qpack's 4096.100.1 files with each
// encoder-stream record moved 1 and 100 sections later, so that sections
// wait for their inserts (blocked, and decoded once the decoder reports
// them unblocked), and checks that a 101st blocked stream, over the 100
// advertised, is a connection error of type QPACK_DECOMPRESSION_FAILED
// (RFC 9204 section 2.1.2).
func TestQIFDecodeBlocked(t *testing.T) {
	root := qif.Path(t, "encoded", "qpack-05", "ls-qpack")
	cfg := qif.Config{Capacity: 4096, Blocked: 100}
	for _, name := range []string{"fb-req", "fb-resp", "netbsd"} {
		want := readQIF(t, name)
		recs := readRecords(t, filepath.Join(root, name+".out.4096.100.1"))
		for _, delay := range []int{1, 100} {
			t.Run(fmt.Sprintf("%s/delay=%d", name, delay), func(t *testing.T) {
				got, err := qif.Decode(delayEncoderStream(recs, delay), cfg)
				if err != nil {
					t.Fatal(err)
				}
				checkSets(t, got, want, seq(len(want)))
			})
		}
	}
	t.Run("fb-req/delay=101", func(t *testing.T) {
		recs := readRecords(t, filepath.Join(root, "fb-req.out.4096.100.1"))
		_, err := qif.Decode(delayEncoderStream(recs, 101), cfg)
		var qe *qpack.Error
		if !errors.As(err, &qe) || qe.Code != qpack.ErrCodeDecompressionFailed {
			t.Fatalf("error %v, want a *qpack.Error with ErrCodeDecompressionFailed", err)
		}
		// Stream 1 needs no insert, and the file's first encoder-stream
		// record comes after it: held back 101 sections, it leaves streams
		// 2 to 102 waiting, and the 101st of them, 102, is refused.
		if qe.StreamID != 102 {
			t.Errorf("error %v names stream %d, want 102, the 101st blocked one", err, qe.StreamID)
		}
	})
}

// encodeConfigs are the 16 settings of the corpus: capacity 0, 256, 512
// and 4096, max blocked streams 0 and 100, ack mode 0 and 1.
func encodeConfigs() []qif.Config {
	var cfgs []qif.Config
	for _, capacity := range []uint64{0, 256, 512, 4096} {
		for _, blocked := range []uint64{0, 100} {
			for _, ack := range []bool{false, true} {
				cfgs = append(cfgs, qif.Config{Capacity: capacity, Blocked: blocked, Ack: ack})
			}
		}
	}
	return cfgs
}

// TestQIFRoundTrip encodes every QIF of the corpus at each of the 16
// settings and decodes the output back with our decoder, exactly; it checks
// the output's shape too: stream IDs 1 to N in order, and no empty
// encoder-stream record.
func TestQIFRoundTrip(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(qif.Path(t, "qifs"), "*.qif"))
	if len(files) != 7 {
		t.Errorf("%d QIFs in qifs/, want 7", len(files))
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".qif")
		want := readQIF(t, name)
		for _, cfg := range encodeConfigs() {
			t.Run(name+"/"+cfg.String(), func(t *testing.T) {
				recs := encodeRecords(t, want, cfg)
				var ids []uint64
				for i, r := range recs {
					switch {
					case r.StreamID != qif.EncoderStream:
						ids = append(ids, r.StreamID)
					case len(r.Data) == 0:
						t.Errorf("record %d: an empty encoder-stream record", i+1)
					}
				}
				if !slices.Equal(ids, seq(len(want))) {
					t.Errorf("sections on streams %v..., want 1 to %d in order", ids[:min(len(ids), 5)], len(want))
				}
				got, err := qif.Decode(recs, cfg)
				if err != nil {
					t.Fatal(err)
				}
				checkSets(t, got, want, seq(len(want)))
			})
		}
	}
}

// TestQIFEncodeBlockedBudget checks the encoder's count of blocked streams
// (RFC 9204 section 2.1.2) by holding its encoder stream back:
//
//   - In ack mode 0 no acknowledgement ever comes, so each section that
//     refers to an entry it has not seen acknowledged stays a stream that
//     may block, and there may be no more of them than the decoder's
//     SETTINGS_QPACK_BLOCKED_STREAMS. So with every encoder-stream record
//     moved to the end, which blocks each such section until then, a
//     decoder that allows that many blocked streams must still decode it.
//   - In ack mode 1 with no blocked stream allowed, a section may refer only
//     to entries acknowledged when it is encoded, which come at the latest
//     with the previous section's encoder-stream record. So with each such
//     record moved one section later, after its section, a decoder that
//     allows no blocked stream must still decode it all.
func TestQIFEncodeBlockedBudget(t *testing.T) {
	for _, name := range compressionQIFs {
		want := readQIF(t, name)
		for _, c := range []string{"4096.100.0", "4096.0.0", "4096.5.0", "512.100.0", "256.1.0", "4096.0.1", "512.0.1", "256.0.1"} {
			t.Run(name+"/"+c, func(t *testing.T) {
				cfg := mustConfig(t, c)
				recs := encodeRecords(t, want, cfg)
				delay := len(recs) // to the end
				if cfg.Ack {
					delay = 1
				}
				got, err := qif.Decode(delayEncoderStream(recs, delay), cfg)
				if err != nil {
					t.Fatal(err)
				}
				checkSets(t, got, want, seq(len(want)))
			})
		}
	}
}
