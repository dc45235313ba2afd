package qpack_test

import (
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/metapack/metapack/internal/qif"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/qpack"
)

// The settings BenchmarkQIF runs at, as compare-qpack.sh names them.
var (
	benchDecodeConfigs = []string{"0.0.0", "4096.100.1"}
	benchEncodeConfigs = []string{"0.0.0", "4096.100.1", "4096.0.1", "256.100.1"}
)

// benchConfigs returns the settings of either op, each once.
func benchConfigs() []string {
	cfgs := slices.Clone(benchDecodeConfigs)
	for _, c := range benchEncodeConfigs {
		if !slices.Contains(cfgs, c) {
			cfgs = append(cfgs, c)
		}
	}
	return cfgs
}

// BenchmarkQIF decodes ls-qpack's files of fb-req, fb-resp and netbsd and
// encodes the QIFs, as ../shared/anchors/compare-qpack.sh runs it beside
// nghttp3 and quic-go/qpack; it reads the corpus from $QIFS or
// ../shared/qifs and skips without it. Sub-benchmarks are named
// qif=<name>/cfg=<capacity>.<blocked>.<ack>/op=<decode|encode>/impl=metapack.
// One op is one pass over a QIF's header sets with a new Decoder or Encoder
// (and, for encode in ack mode 1, a Decoder whose acknowledgements go back to
// it after each section); batches and buffers are reused across passes.
// Decode's MB/s counts wire bytes (sections and encoder stream), encode's
// the names' and values' bytes; encode reports its wire bytes a pass as
// wire-bytes. Each workload is checked once, before it is timed.
func BenchmarkQIF(b *testing.B) {
	root := qif.Path(b, "encoded", "qpack-05", "ls-qpack")
	for _, name := range compressionQIFs {
		b.Run("qif="+name, func(b *testing.B) {
			sets := readQIF(b, name)
			batches := make([]*mdelem.Batch, len(sets))
			for i, set := range sets {
				batches[i] = mdelem.NewBatch(len(set), qif.RawBytes(sets[i:i+1]))
				for _, f := range set {
					batches[i].Append(mdelem.From(mdelem.BorrowString(f.Name), mdelem.BorrowString(f.Value)))
				}
			}
			// One sub-benchmark per cfg, with op=decode and op=encode below it:
			// two of the same name would be told apart as cfg=...#01.
			for _, c := range benchConfigs() {
				cfg, _ := qif.ParseConfig(c)
				b.Run("cfg="+c, func(b *testing.B) {
					if slices.Contains(benchDecodeConfigs, c) {
						b.Run("op=decode", func(b *testing.B) {
							recs := readRecords(b, filepath.Join(root, name+".out."+c))
							got, err := qif.Decode(recs, cfg)
							if err != nil {
								b.Fatal(err)
							}
							checkSets(b, got, sets, seq(len(sets)))
							b.Run("impl=metapack", func(b *testing.B) { benchDecode(b, recs, cfg) })
						})
					}
					if slices.Contains(benchEncodeConfigs, c) {
						b.Run("op=encode", func(b *testing.B) {
							got, err := qif.Decode(encodeRecords(b, sets, cfg), cfg)
							if err != nil {
								b.Fatal(err)
							}
							checkSets(b, got, sets, seq(len(sets)))
							b.Run("impl=metapack", func(b *testing.B) { benchEncode(b, batches, qif.RawBytes(sets), cfg) })
						})
					}
				})
			}
		})
	}
}

// benchDecode times passes over recs with a new Decoder each.
func benchDecode(b *testing.B, recs []qif.Record, cfg qif.Config) {
	batch := mdelem.NewBatch(64, 4096)
	var decStream []byte
	var unblocked []uint64
	var blocked []qif.Record
	// The corpus's files assume a table at full capacity (see qif.Decode).
	var setCapacity []byte
	if cfg.Capacity > 0 {
		setCapacity = qif.AppendSetCapacity(nil, cfg.Capacity)
	}
	b.SetBytes(int64(qif.WireBytes(recs)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		dec := qpack.NewDecoder(cfg.Capacity, cfg.Blocked)
		if setCapacity != nil {
			if err := dec.WriteEncoderStream(setCapacity); err != nil {
				b.Fatal(err)
			}
		}
		blocked = blocked[:0]
		for _, r := range recs {
			if r.StreamID == qif.EncoderStream {
				if err := dec.WriteEncoderStream(r.Data); err != nil {
					b.Fatal(err)
				}
				if len(blocked) == 0 {
					continue
				}
				unblocked = dec.AppendUnblocked(unblocked[:0])
				for _, id := range unblocked {
					for i, p := range blocked {
						if p.StreamID == id {
							batch.Reset()
							if err := dec.Decode(batch, id, p.Data); err != nil {
								b.Fatal(err)
							}
							blocked = append(blocked[:i], blocked[i+1:]...)
							break
						}
					}
				}
				continue
			}
			batch.Reset()
			if err := dec.Decode(batch, r.StreamID, r.Data); errors.Is(err, qpack.ErrBlocked) {
				blocked = append(blocked, r)
			} else if err != nil {
				b.Fatal(err)
			}
			decStream = dec.AppendDecoderStream(decStream[:0])
		}
		if len(blocked) > 0 {
			b.Fatalf("%d sections still blocked", len(blocked))
		}
	}
}

// benchEncode times passes over batches with a new Encoder each (and a new
// Decoder for the acknowledgements in ack mode 1).
func benchEncode(b *testing.B, batches []*mdelem.Batch, raw int, cfg qif.Config) {
	// A check pass runs a Decoder beside the Encoder and records the
	// decoder-stream bytes after each section; timed passes feed the same
	// bytes back, as compare-qpack.sh's nghttp3 encoder does, and must give
	// the same wire bytes.
	var section, encStream []byte
	acks := make([][]byte, len(batches))
	pass := func(check bool) int {
		enc := qpack.NewEncoder()
		enc.SetMaxTableCapacityLimit(uint32(cfg.Capacity))
		enc.SetPeerSettings(cfg.Capacity, cfg.Blocked)
		var dec *qpack.Decoder
		if check && cfg.Ack {
			dec = qpack.NewDecoder(cfg.Capacity, cfg.Blocked)
		}
		wire := 0
		for i, batch := range batches {
			id := uint64(i + 1)
			section, encStream = enc.AppendSection(section[:0], encStream[:0], id, batch)
			wire += len(section) + len(encStream)
			if !cfg.Ack {
				continue
			}
			if dec != nil {
				if err := dec.WriteEncoderStream(encStream); err != nil {
					b.Fatal(err)
				}
				if err := dec.Decode(nil, id, section); err != nil {
					b.Fatal(err)
				}
				acks[i] = dec.AppendDecoderStream(acks[i][:0])
			}
			if err := enc.WriteDecoderStream(acks[i]); err != nil {
				b.Fatal(err)
			}
		}
		return wire
	}
	want := pass(true)
	b.SetBytes(int64(raw))
	b.ReportAllocs()
	b.ResetTimer()
	wire := 0
	for b.Loop() {
		wire = pass(false)
	}
	if wire != want {
		b.Fatalf("a timed pass sent %d wire bytes, the check pass %d", wire, want)
	}
	b.ReportMetric(float64(wire), "wire-bytes")
}
