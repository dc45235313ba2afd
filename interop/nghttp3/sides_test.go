//go:build nghttp3

package nghttp3

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/metapack/metapack/interop/nghttp3/ngqpack"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/qpack"
)

// Field is one header field; Sensitive is the N bit.
type Field = ngqpack.Field

// encoder is one QPACK encoder under test.
type encoder interface {
	name() string
	// encode returns stream id's section of l and the encoder-stream
	// bytes it needs.
	encode(id uint64, l []Field) (section, encStream []byte, err error)
	readDecoderStream(p []byte) error
	// neverIndexed reports whether the encoder's own policy may send f
	// with the N bit though the caller did not ask for it.
	neverIndexed(f Field) bool
}

// decoder is one QPACK decoder under test.
type decoder interface {
	name() string
	readEncoderStream(p []byte) error
	// decode starts stream id's section: its fields, or blocked true.
	decode(id uint64, section []byte) ([]Field, bool, error)
	// resume finishes a blocked section that unblocked reported.
	resume(id uint64) ([]Field, bool, error)
	unblocked() []uint64
	blockedCount() int
	cancel(id uint64) error
	decoderStream() []byte
	insertCount() uint64
}

// tableSide is our codec's side of a connection, whose dynamic table the
// tests read through its DynamicEntry.
type tableSide interface {
	name() string
	insertCount() uint64
	entry(abs uint64) (name, value string, ok bool)
}

// catch turns a panic of f into an error, so that one test's panic fails
// that test instead of the whole binary.
func catch(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f()
}

// ourDecoder is qpack.Decoder with its limits raised out of the way (the
// tests compare codecs, not limits), and the bytes of blocked sections,
// which qpack leaves to its caller.
type ourDecoder struct {
	dec     *qpack.Decoder
	batch   *mdelem.Batch
	pending map[uint64][]byte
}

func newOurDecoder(capacity, blocked uint64) *ourDecoder {
	d := &ourDecoder{dec: qpack.NewDecoder(capacity, blocked), batch: mdelem.NewBatch(16, 1024), pending: map[uint64][]byte{}}
	d.dec.SetMaxFieldSectionSize(1 << 24)
	d.dec.SetMaxFields(1 << 20)
	d.dec.SetMaxStringLength(1 << 24)
	return d
}

func (d *ourDecoder) name() string { return "qpack.Decoder" }

func (d *ourDecoder) readEncoderStream(p []byte) error {
	return catch(func() error { return d.dec.WriteEncoderStream(p) })
}

func (d *ourDecoder) decode(id uint64, sec []byte) (out []Field, blocked bool, err error) {
	err = catch(func() error {
		d.batch.Reset()
		err := d.dec.Decode(d.batch, id, sec)
		if errors.Is(err, qpack.ErrBlocked) {
			d.pending[id] = slices.Clone(sec)
			blocked = true
			return nil
		}
		if err != nil {
			return err
		}
		for _, f := range d.batch.All() {
			out = append(out, Field{Name: f.Name.String(), Value: f.Value.String(), Sensitive: f.Sensitive()})
		}
		return nil
	})
	return out, blocked, err
}

func (d *ourDecoder) resume(id uint64) ([]Field, bool, error) {
	sec, ok := d.pending[id]
	if !ok {
		return nil, false, fmt.Errorf("stream %d: AppendUnblocked reports a stream that is not blocked", id)
	}
	delete(d.pending, id)
	return d.decode(id, sec)
}

func (d *ourDecoder) unblocked() (ids []uint64) {
	if err := catch(func() error { ids = d.dec.AppendUnblocked(nil); return nil }); err != nil {
		panic(err)
	}
	return ids
}

func (d *ourDecoder) blockedCount() int { return len(d.pending) }

func (d *ourDecoder) cancel(id uint64) error {
	delete(d.pending, id)
	return catch(func() error { d.dec.CancelStream(id); return nil })
}

func (d *ourDecoder) decoderStream() []byte              { return d.dec.AppendDecoderStream(nil) }
func (d *ourDecoder) insertCount() uint64                { return d.dec.InsertCount() }
func (d *ourDecoder) TableSize() (size, capacity uint64) { return d.dec.TableSize() }
func (d *ourDecoder) entry(abs uint64) (string, string, bool) {
	return d.dec.DynamicEntry(abs)
}

// ngEncoder is nghttp3's encoder.
type ngEncoder struct{ *ngqpack.Encoder }

func newNgEncoder(t *testing.T, capacity, blocked uint64) ngEncoder {
	t.Helper()
	e, err := ngqpack.NewEncoder(capacity)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	e.SetMaxTableCapacity(capacity)
	e.SetMaxBlockedStreams(blocked)
	return ngEncoder{e}
}

func (e ngEncoder) name() string { return "nghttp3 encoder" }
func (e ngEncoder) encode(id uint64, l []Field) ([]byte, []byte, error) {
	return e.Encode(int64(id), l)
}
func (e ngEncoder) readDecoderStream(p []byte) error { return e.ReadDecoderStream(p) }

// neverIndexed is nghttp3's own rule: authorization, and cookies under 20
// bytes.
func (e ngEncoder) neverIndexed(f Field) bool {
	return f.Name == "authorization" || f.Name == "cookie" && len(f.Value) < 20
}

// ngDecoder is nghttp3's decoder.
type ngDecoder struct{ *ngqpack.Decoder }

func newNgDecoder(t *testing.T, capacity, blocked uint64) ngDecoder {
	t.Helper()
	d, err := ngqpack.NewDecoder(capacity, blocked)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	return ngDecoder{d}
}

func (d ngDecoder) name() string                     { return "nghttp3 decoder" }
func (d ngDecoder) readEncoderStream(p []byte) error { return d.ReadEncoderStream(p) }
func (d ngDecoder) decode(id uint64, sec []byte) ([]Field, bool, error) {
	return d.Decode(int64(id), sec)
}
func (d ngDecoder) resume(id uint64) ([]Field, bool, error) { return d.Resume(int64(id)) }
func (d ngDecoder) unblocked() []uint64 {
	var out []uint64
	for _, id := range d.Unblocked() {
		out = append(out, uint64(id))
	}
	return out
}
func (d ngDecoder) blockedCount() int      { return len(d.Blocked()) }
func (d ngDecoder) cancel(id uint64) error { return d.CancelStream(int64(id)) }
func (d ngDecoder) decoderStream() []byte  { return d.DecoderStream() }
func (d ngDecoder) insertCount() uint64    { return d.InsertCount() }
