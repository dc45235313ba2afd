//go:build nghttp3

package nghttp3

import (
	"testing"

	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/qpack"
	"github.com/metapack/metapack/staticdata"
)

// ourEncoder is qpack.Encoder.
type ourEncoder struct {
	enc   *qpack.Encoder
	batch *mdelem.Batch
}

// newOurEncoder returns qpack.NewEncoder() after the peer's SETTINGS.
func newOurEncoder(capacity, blocked uint64) *ourEncoder {
	e := &ourEncoder{enc: qpack.NewEncoder(), batch: mdelem.NewBatch(16, 1024)}
	e.enc.SetPeerSettings(capacity, blocked)
	return e
}

func (e *ourEncoder) name() string { return "qpack.Encoder" }

// fill puts l into e.batch, giving names and values as static atoms where
// they are ones on some fields, so that both of From's paths run.
func (e *ourEncoder) fill(l []Field) {
	e.batch.Reset()
	for i, f := range l {
		name, value := staticdata.Lookup(f.Name), staticdata.Lookup(f.Value)
		var mf mdelem.Field
		switch {
		case name != nil && value != nil && i%3 == 0:
			mf = mdelem.From(name, value)
		case name != nil && i%2 == 0:
			mf = mdelem.From(name, mdelem.BorrowString(f.Value))
		default:
			mf = mdelem.From(mdelem.BorrowString(f.Name), mdelem.BorrowString(f.Value))
		}
		e.batch.Append(mf.WithSensitive(f.Sensitive))
	}
}

func (e *ourEncoder) encode(id uint64, l []Field) (sec, es []byte, err error) {
	err = catch(func() error {
		e.fill(l)
		if err := e.batch.Err(); err != nil {
			return err
		}
		sec, es = e.enc.AppendSection(nil, nil, id, e.batch)
		return nil
	})
	return sec, es, err
}

func (e *ourEncoder) readDecoderStream(p []byte) error {
	return catch(func() error { return e.enc.WriteDecoderStream(p) })
}

// neverIndexed is qpack.Encoder's default policy (SetIndexCredentials
// off), hpack's: authorization, proxy-authorization, and cookies under 20
// bytes.
func (e *ourEncoder) neverIndexed(f Field) bool {
	switch f.Name {
	case "authorization", "proxy-authorization":
		return true
	case "cookie":
		return len(f.Value) < 20
	}
	return false
}

func (e *ourEncoder) insertCount() uint64 { return e.enc.InsertCount() }
func (e *ourEncoder) entry(abs uint64) (string, string, bool) {
	return e.enc.DynamicEntry(abs)
}

// TestOursToNghttp3 sends random lists from qpack.Encoder to nghttp3's
// decoder, its decoder stream fed back, under every scenario.
func TestOursToNghttp3(t *testing.T) {
	forEach(t, func(t *testing.T, capacity, blocked uint64, sc scenario, seed uint64) {
		enc := newOurEncoder(capacity, blocked)
		c := run(t, enc, newNgDecoder(t, capacity, blocked), enc, capacity, blocked, sc, seed, genLists(seed, sectionsPerRun))
		t.Logf("%d inserts, %d sections blocked, %d streams cancelled", enc.insertCount(), c.blocked, c.cancelled)
	})
}
