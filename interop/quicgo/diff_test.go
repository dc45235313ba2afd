package quicgo

import (
	"testing"

	"github.com/metapack/metapack/internal/indexpolicy"
	"github.com/metapack/metapack/interop/quicgo/quicqpack"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/qpack"
)

// TestQuicGoToMetapack: quic-go/qpack's encoder's sections decode with
// qpack.Decoder (no dynamic table) to the fields quic-go/qpack was given,
// none of them sensitive, and the decoder has nothing to say on its
// decoder stream, as no section refers to the dynamic table.
func TestQuicGoToMetapack(t *testing.T) {
	inputs(t, func(t *testing.T, lists [][]quicqpack.Field, _ [][]bool) {
		enc := quicqpack.NewEncoder()
		dec := qpack.NewDecoder(0, 0)
		b := mdelem.NewBatch(32, 4096)
		var got []quicqpack.Field
		bad, checked, nonEmpty := 0, 0, 0
		for i, list := range lists {
			if len(list) == 0 {
				continue // quic-go/qpack writes no bytes for it: TestQuicGoEmptyList
			}
			nonEmpty++
			sec, err := enc.Encode(list)
			if err != nil {
				t.Fatalf("list %d: quic-go/qpack's Encode: %v", i, err)
			}
			b.Reset()
			sid := uint64(4 * i)
			if err := dec.Decode(b, sid, sec); err != nil {
				t.Errorf("list %d (stream %d): Decode of quic-go/qpack's section %s: %v", i, sid, hexHead(sec), err)
			} else if d := diffFields(appendBatch(got[:0], b), list); d != "" {
				t.Errorf("list %d (stream %d): Decode of quic-go/qpack's section %s: %s", i, sid, hexHead(sec), d)
			} else {
				for k := range b.Len() {
					if b.At(k).Sensitive() {
						t.Errorf("list %d field %d: sensitive, but quic-go/qpack never sets the N bit (section %s)", i, k, hexHead(sec))
						break
					}
				}
				checked++
				continue
			}
			if bad++; bad == errorLimit {
				t.Fatalf("stopping after %d differences", bad)
			}
		}
		if ds := dec.AppendDecoderStream(nil); len(ds) != 0 {
			t.Errorf("after static-only sections, AppendDecoderStream gives %x, want nothing", ds)
		}
		t.Logf("%d of %d non-empty lists decoded to quic-go/qpack's input", checked, nonEmpty)
	})
}

// TestMetapackToQuicGo: qpack.Encoder's sections without SetPeerSettings
// (a dynamic table of capacity 0) need no encoder-stream bytes and decode
// with quic-go/qpack's decoder to the encoder's fields. quic-go/qpack
// ignores the never-indexed bit, so qpack.Decoder checks that the fields
// marked sensitive, and those its policy never indexes, come back so.
func TestMetapackToQuicGo(t *testing.T) {
	inputs(t, func(t *testing.T, lists [][]quicqpack.Field, sensitive [][]bool) {
		enc := qpack.NewEncoder()
		qdec := quicqpack.NewDecoder()
		dec := qpack.NewDecoder(0, 0)
		in, out := mdelem.NewBatch(32, 4096), mdelem.NewBatch(32, 4096)
		var sec, es []byte
		var got []quicqpack.Field
		bad := 0
		for i, list := range lists {
			var sens []bool
			if sensitive != nil {
				sens = sensitive[i]
			}
			if err := fillBatch(in, list, sens); err != nil {
				t.Fatalf("list %d: filling the batch: %v", i, err)
			}
			sid := uint64(4 * i)
			sec, es = enc.AppendSection(sec[:0], es[:0], sid, in)
			if len(es) != 0 {
				t.Fatalf("list %d: %d encoder-stream bytes (%x) without SetPeerSettings", i, len(es), es)
			}
			out.Reset()
			var err error
			if got, err = qdec.AppendFields(got[:0], sec); err != nil {
				t.Errorf("list %d: quic-go/qpack's decoder on section %s: %v", i, hexHead(sec), err)
			} else if d := diffFields(got, list); d != "" {
				t.Errorf("list %d: quic-go/qpack's decoder on section %s: %s", i, hexHead(sec), d)
			} else if err := dec.Decode(out, sid, sec); err != nil {
				t.Errorf("list %d: qpack.Decoder on our own section %s: %v", i, hexHead(sec), err)
			} else {
				for k := range out.Len() {
					if want := k < len(sens) && sens[k] || neverIndexedByPolicy(list[k]); out.At(k).Sensitive() != want {
						t.Errorf("list %d field %d %s: Sensitive() = %v after our round trip, want %v (section %s)",
							i, k, show(list[k]), !want, want, hexHead(sec))
					}
				}
				continue
			}
			if bad++; bad == errorLimit {
				t.Fatalf("stopping after %d differences", bad)
			}
		}
	})
}

// neverIndexedByPolicy reports whether qpack.Encoder, by its documented
// default policy, sends f with the never-indexed bit though f is not marked
// sensitive: authorization, proxy-authorization, and cookies short enough
// to guess.
func neverIndexedByPolicy(f quicqpack.Field) bool {
	switch f.Name {
	case "authorization", "proxy-authorization":
		return true
	case "cookie":
		return len(f.Value) < indexpolicy.MinIndexedCookie
	}
	return false
}

// TestQuicGoEmptyList: for an empty header list quic-go/qpack's encoder
// writes no bytes at all, not even the section prefix (RFC 9204 §4.5.1),
// so that both decoders must refuse the empty "section" it gives.
func TestQuicGoEmptyList(t *testing.T) {
	sec, err := quicqpack.NewEncoder().Encode(nil)
	if err != nil || len(sec) != 0 {
		t.Fatalf("quic-go/qpack's Encode(nil) = %x, %v; want no bytes (the quirk this test is about)", sec, err)
	}
	if err := qpack.NewDecoder(0, 0).Decode(mdelem.NewBatch(1, 0), 0, sec); err == nil {
		t.Error("qpack.Decoder accepts an empty section, which has no prefix")
	} else {
		t.Logf("qpack.Decoder: %v", err)
	}
	if _, err := quicqpack.NewDecoder().AppendFields(nil, sec); err == nil {
		t.Error("quic-go/qpack's decoder accepts an empty section, which has no prefix")
	}
}
