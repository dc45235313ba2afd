package quicgo

import (
	"bytes"
	"io"
	"testing"

	compat "github.com/metapack/metapack/compat/qpack"
	"github.com/metapack/metapack/interop/quicgo/quicqpack"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/qpack"
)

// BenchmarkStatic times qpack, and compat/qpack (impl=compat, the drop-in
// with quic-go/qpack's API, driven exactly as quic-go/qpack is), beside
// quic-go/qpack with the static table only. One op is one pass over a QIF's header sets: decode decodes
// ls-qpack's static-only sections of it (its .out.0.0.0 file; MB/s counts
// their bytes) and reads every field; encode encodes each header set as
// one section (MB/s counts names' and values' bytes; wire-bytes is the
// sections' size). Each side keeps one decoder or encoder and reuses its
// buffers and batches across passes, as an HTTP/3 connection would; quic-go
// /qpack is driven as quic-go's http3 drives it. Before timing, each side's
// output is checked against the QIF.
func BenchmarkStatic(b *testing.B) {
	for _, w := range loadWorkloads(b) {
		b.Run("qif="+w.name+"/op=decode/impl=metapack", func(b *testing.B) { benchDecodeMetapack(b, w) })
		b.Run("qif="+w.name+"/op=decode/impl=quic-go", func(b *testing.B) { benchDecodeQuicGo(b, w) })
		b.Run("qif="+w.name+"/op=decode/impl=compat", func(b *testing.B) { benchDecodeCompat(b, w) })
		b.Run("qif="+w.name+"/op=encode/impl=metapack", func(b *testing.B) { benchEncodeMetapack(b, w) })
		b.Run("qif="+w.name+"/op=encode/impl=quic-go", func(b *testing.B) { benchEncodeQuicGo(b, w) })
		b.Run("qif="+w.name+"/op=encode/impl=compat", func(b *testing.B) { benchEncodeCompat(b, w) })
	}
}

// sectionSet returns the header set that record r's section encodes:
// stream N holds header set N-1.
func sectionSet(b *testing.B, w *workload, r record) []quicqpack.Field {
	if r.stream == 0 || r.stream > uint64(len(w.sets)) {
		b.Fatalf("%s: a section on stream %d, and the QIF has %d header sets", w.name, r.stream, len(w.sets))
	}
	return w.sets[r.stream-1]
}

func benchDecodeMetapack(b *testing.B, w *workload) {
	dec := qpack.NewDecoder(0, 0)
	batch := mdelem.NewBatch(64, 8192)
	pass := func(check bool) (fields, size int) {
		var got []quicqpack.Field
		for _, r := range w.recs {
			if r.stream == 0 {
				if err := dec.WriteEncoderStream(r.data); err != nil {
					b.Fatalf("%s: encoder stream: %v", w.name, err)
				}
				continue
			}
			batch.Reset()
			if err := dec.Decode(batch, r.stream, r.data); err != nil {
				b.Fatalf("%s: stream %d: %v", w.name, r.stream, err)
			}
			for i := range batch.Len() {
				f := batch.At(i)
				size += f.Name.Len() + f.Value.Len()
			}
			fields += batch.Len()
			if check {
				if d := diffFields(appendBatch(got[:0], batch), sectionSet(b, w, r)); d != "" {
					b.Fatalf("%s: stream %d: %s", w.name, r.stream, d)
				}
			}
		}
		return fields, size
	}
	benchDecode(b, w, pass)
}

func benchDecodeQuicGo(b *testing.B, w *workload) {
	dec := quicqpack.NewDecoder()
	pass := func(check bool) (fields, size int) {
		var got []quicqpack.Field
		for _, r := range w.recs {
			if r.stream == 0 {
				if len(r.data) != 0 {
					b.Fatalf("%s: %d encoder-stream bytes in a static-only file", w.name, len(r.data))
				}
				continue
			}
			if check {
				var err error
				if got, err = dec.AppendFields(got[:0], r.data); err != nil {
					b.Fatalf("%s: stream %d: %v", w.name, r.stream, err)
				}
				if d := diffFields(got, sectionSet(b, w, r)); d != "" {
					b.Fatalf("%s: stream %d: %s", w.name, r.stream, d)
				}
			}
			n, s, err := dec.Count(r.data)
			if err != nil {
				b.Fatalf("%s: stream %d: %v", w.name, r.stream, err)
			}
			fields += n
			size += s
		}
		return fields, size
	}
	benchDecode(b, w, pass)
}

// benchDecode checks one pass against the QIF, then times passes.
func benchDecode(b *testing.B, w *workload, pass func(check bool) (fields, size int)) {
	wantFields, wantSize := pass(true)
	if wantFields != w.fields || wantSize != w.size {
		b.Fatalf("%s: decoded %d fields of %d bytes, the QIF has %d of %d", w.name, wantFields, wantSize, w.fields, w.size)
	}
	b.SetBytes(int64(w.wire))
	b.ReportAllocs()
	for b.Loop() {
		if fields, size := pass(false); fields != wantFields || size != wantSize {
			b.Fatalf("%s: decoded %d fields of %d bytes, the first pass %d of %d", w.name, fields, size, wantFields, wantSize)
		}
	}
}

func benchEncodeMetapack(b *testing.B, w *workload) {
	batches := make([]*mdelem.Batch, len(w.sets))
	for i, set := range w.sets {
		batches[i] = mdelem.NewBatch(len(set), 0)
		if err := fillBatch(batches[i], set, nil); err != nil {
			b.Fatalf("%s: header set %d: %v", w.name, i, err)
		}
	}
	enc := qpack.NewEncoder()
	qdec := quicqpack.NewDecoder()
	var sec, es []byte
	pass := func(check bool) (wire int) {
		for i, batch := range batches {
			sec, es = enc.AppendSection(sec[:0], es[:0], uint64(i+1), batch)
			if len(es) != 0 {
				b.Fatalf("%s: header set %d: %d encoder-stream bytes without SetPeerSettings", w.name, i, len(es))
			}
			if check {
				checkSection(b, w, qdec, i, sec)
			}
			wire += len(sec)
		}
		return wire
	}
	benchEncode(b, w, pass)
}

func benchEncodeQuicGo(b *testing.B, w *workload) {
	enc := quicqpack.NewEncoder()
	qdec := quicqpack.NewDecoder()
	pass := func(check bool) (wire int) {
		for i, set := range w.sets {
			sec, err := enc.Encode(set)
			if err != nil {
				b.Fatalf("%s: header set %d: %v", w.name, i, err)
			}
			if check {
				checkSection(b, w, qdec, i, sec)
			}
			wire += len(sec)
		}
		return wire
	}
	benchEncode(b, w, pass)
}

// checkSection checks that sec decodes with quic-go/qpack's decoder to
// header set i.
func checkSection(b *testing.B, w *workload, dec *quicqpack.Decoder, i int, sec []byte) {
	got, err := dec.AppendFields(nil, sec)
	if err != nil {
		b.Fatalf("%s: header set %d: decoding the section: %v", w.name, i, err)
	}
	if d := diffFields(got, w.sets[i]); d != "" {
		b.Fatalf("%s: header set %d: %s", w.name, i, d)
	}
}

// benchEncode checks one pass against the QIF, then times passes.
func benchEncode(b *testing.B, w *workload, pass func(check bool) (wire int)) {
	wire := pass(true)
	b.SetBytes(int64(w.size))
	b.ReportAllocs()
	for b.Loop() {
		if n := pass(false); n != wire {
			b.Fatalf("%s: wrote %d bytes, the first pass %d", w.name, n, wire)
		}
	}
	b.ReportMetric(float64(wire), "wire-bytes")
}

func benchDecodeCompat(b *testing.B, w *workload) {
	dec := compat.NewDecoder()
	pass := func(check bool) (fields, size int) {
		var got []quicqpack.Field
		for _, r := range w.recs {
			if r.stream == 0 {
				continue
			}
			next := dec.Decode(r.data)
			for {
				f, err := next()
				if err == io.EOF {
					break
				}
				if err != nil {
					b.Fatalf("%s: stream %d: %v", w.name, r.stream, err)
				}
				fields++
				size += len(f.Name) + len(f.Value)
				if check {
					got = append(got, quicqpack.Field(f))
				}
			}
			if check {
				if d := diffFields(got, sectionSet(b, w, r)); d != "" {
					b.Fatalf("%s: stream %d: %s", w.name, r.stream, d)
				}
				got = got[:0]
			}
		}
		return fields, size
	}
	benchDecode(b, w, pass)
}

func benchEncodeCompat(b *testing.B, w *workload) {
	var buf bytes.Buffer
	enc := compat.NewEncoder(&buf)
	qdec := quicqpack.NewDecoder()
	pass := func(check bool) (wire int) {
		for i, set := range w.sets {
			buf.Reset()
			for _, f := range set {
				if err := enc.WriteField(compat.HeaderField(f)); err != nil {
					b.Fatalf("%s: header set %d: %v", w.name, i, err)
				}
			}
			if err := enc.Close(); err != nil {
				b.Fatalf("%s: header set %d: %v", w.name, i, err)
			}
			if check {
				checkSection(b, w, qdec, i, buf.Bytes())
			}
			wire += buf.Len()
		}
		return wire
	}
	benchEncode(b, w, pass)
}
