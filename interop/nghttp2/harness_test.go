//go:build nghttp2

package nghttp2

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/interop/nghttp2/hd"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// table is the dynamic table view that hpack's Encoder and Decoder and the
// hd wrappers share.
type table interface {
	DynamicTableLen() int
	DynamicEntry(i int) (name, value string, ok bool)
	DynamicTableSize() (size, max uint32)
}

// snapshot is a dynamic table's state: entries newest first, size, maximum.
type snapshot struct {
	entries   []hd.Field
	size, max uint32
}

func snap(t table) snapshot {
	s := snapshot{entries: make([]hd.Field, t.DynamicTableLen())}
	for i := range s.entries {
		var ok bool
		s.entries[i].Name, s.entries[i].Value, ok = t.DynamicEntry(i)
		if !ok {
			s.entries[i].Name = "(DynamicEntry not ok below DynamicTableLen)"
		}
	}
	s.size, s.max = t.DynamicTableSize()
	return s
}

func (s snapshot) equal(o snapshot) bool {
	return s.size == o.size && s.max == o.max && slices.Equal(s.entries, o.entries)
}

func (s snapshot) String() string {
	return fmt.Sprintf("size %d/%d, %d entries %v", s.size, s.max, len(s.entries), s.entries)
}

// encSide is one encoder under test.
type encSide interface {
	table
	name() string
	settings(v uint32) error // the peer's new SETTINGS_HEADER_TABLE_SIZE
	encode(dst []byte, list []hd.Field) ([]byte, error)
	// neverIndexed reports whether the encoder's own policy may send f as
	// a never-indexed literal though the caller did not ask for it.
	neverIndexed(f hd.Field) bool
	// checkUpdates checks the size updates a block starts with, when the
	// encoder promises which ones it sends; nil means no promise.
	checkUpdates(updates []uint64) error
}

// decSide is one decoder under test.
type decSide interface {
	table
	name() string
	settings(v uint32) error // our new SETTINGS_HEADER_TABLE_SIZE, acknowledged
	decode(dst []hd.Field, block []byte) ([]hd.Field, error)
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

// ourEncoder is hpack.Encoder with a model of the size updates RFC 7541
// §4.2 requires, which its blocks must send exactly.
type ourEncoder struct {
	enc   *hpack.Encoder
	batch *mdelem.Batch
	// mirror decodes every block, so its dynamic table is the encoder's,
	// which hpack does not export.
	mirror      *hpack.Decoder
	mirrorBatch *mdelem.Batch
	// The model: the encoder's own cap, the maximum the peer's decoder
	// last heard of, the maximum now, and the lowest since the last block.
	limit, sent, cur, low uint32
}

// newOurEncoder returns hpack.NewEncoder(initial), with its own cap raised
// to limit when that is not the default. HTTP/2 tables start at 4096, so
// the peer's decoder knows of 4096 until the first block.
func newOurEncoder(initial, limit uint32) (*ourEncoder, error) {
	e := &ourEncoder{batch: mdelem.NewBatch(16, 1024), limit: limit, sent: hpack.DefaultTableSize, mirrorBatch: mdelem.NewBatch(16, 1024)}
	err := catch(func() error {
		e.mirror = hpack.NewDecoder(hpack.DefaultTableSize)
		e.mirror.SetAllowedMaxDynamicTableSize(1 << 30)
		e.mirror.SetMaxStringLength(1 << 30)
		e.mirror.SetMaxHeaderListSize(1 << 30)
		e.mirror.SetMaxFields(1 << 30)
		e.enc = hpack.NewEncoder(initial)
		if limit != hpack.DefaultTableSize {
			e.enc.SetMaxDynamicTableSizeLimit(limit)
		}
		return nil
	})
	e.cur = min(initial, limit)
	e.low = e.cur
	return e, err
}

func (e *ourEncoder) name() string { return "hpack.Encoder" }

func (e *ourEncoder) settings(v uint32) error {
	e.cur = min(v, e.limit)
	e.low = min(e.low, e.cur)
	return catch(func() error { e.enc.SetMaxDynamicTableSize(v); return nil })
}

// fill puts list into e.batch, giving names and values as static atoms
// where they are ones on some fields, so that both of From's paths run.
func (e *ourEncoder) fill(list []hd.Field) {
	e.batch.Reset()
	for i, f := range list {
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
		e.batch.Append(mf.WithSensitive(f.NoIndex))
	}
}

func (e *ourEncoder) encode(dst []byte, list []hd.Field) (out []byte, err error) {
	err = catch(func() error {
		e.fill(list)
		out = e.enc.AppendBlock(dst, e.batch)
		e.mirrorBatch.Reset()
		return e.mirror.Decode(e.mirrorBatch, out[len(dst):])
	})
	return out, err
}

func (e *ourEncoder) neverIndexed(f hd.Field) bool {
	switch f.Name {
	case "authorization", "proxy-authorization":
		return true
	case "cookie":
		return len(f.Value) < 20
	}
	return false
}

// checkUpdates compares the block's size updates with RFC 7541 §4.2: when
// the maximum dipped below both the one the decoder knows and the final
// one, an update to at most the lowest (the encoder may go lower, to 0),
// then the final one; else the final one if it differs from the one the
// decoder knows; else none.
func (e *ourEncoder) checkUpdates(got []uint64) error {
	defer func() { e.sent, e.low = e.cur, e.cur }()
	var ok bool
	var want string
	switch {
	case e.low < e.sent && e.low < e.cur:
		want = fmt.Sprintf("[<=%d %d]", e.low, e.cur)
		ok = len(got) == 2 && got[0] <= uint64(e.low) && got[1] == uint64(e.cur)
	case e.cur != e.sent:
		want = fmt.Sprintf("[%d]", e.cur)
		ok = len(got) == 1 && got[0] == uint64(e.cur)
	default:
		want = "none"
		ok = len(got) == 0
	}
	if !ok {
		return fmt.Errorf("size updates %v, want %s (decoder knows %d, lowest maximum since the last block %d, maximum now %d)", got, want, e.sent, e.low, e.cur)
	}
	return nil
}

func (e *ourEncoder) DynamicTableLen() int { return dynLen(e.mirror) }
func (e *ourEncoder) DynamicEntry(i int) (name, value string, ok bool) {
	return e.mirror.DynamicEntry(i)
}
func (e *ourEncoder) DynamicTableSize() (size, max uint32) { return e.mirror.DynamicTableSize() }

// ourDecoder is hpack.Decoder with its limits raised out of the way: the
// tests compare codecs, not limits.
type ourDecoder struct {
	dec   *hpack.Decoder
	batch *mdelem.Batch
}

// newOurDecoder returns hpack.NewDecoder(initial) when direct, and
// otherwise hpack.NewDecoder(4096) followed by SetAllowedMaxDynamicTableSize
// (initial): HTTP/2's start, then our first SETTINGS.
func newOurDecoder(initial uint32, direct bool) (*ourDecoder, error) {
	d := &ourDecoder{batch: mdelem.NewBatch(16, 1024)}
	err := catch(func() error {
		if direct {
			d.dec = hpack.NewDecoder(initial)
		} else {
			d.dec = hpack.NewDecoder(hpack.DefaultTableSize)
			d.dec.SetAllowedMaxDynamicTableSize(initial)
		}
		d.dec.SetMaxStringLength(1 << 20)
		d.dec.SetMaxHeaderListSize(1 << 30)
		d.dec.SetMaxFields(1 << 20)
		return nil
	})
	return d, err
}

func (d *ourDecoder) name() string { return "hpack.Decoder" }

func (d *ourDecoder) settings(v uint32) error {
	return catch(func() error { d.dec.SetAllowedMaxDynamicTableSize(v); return nil })
}

func (d *ourDecoder) decode(dst []hd.Field, block []byte) ([]hd.Field, error) {
	err := catch(func() error {
		d.batch.Reset()
		if err := d.dec.Decode(d.batch, block); err != nil {
			return err
		}
		for _, f := range d.batch.All() {
			dst = append(dst, hd.Field{Name: f.Name.String(), Value: f.Value.String(), NoIndex: f.Sensitive()})
		}
		return nil
	})
	return dst, err
}

func (d *ourDecoder) DynamicTableLen() int { return dynLen(d.dec) }

// dynLen counts d's dynamic table entries, which hpack.Decoder shows
// through DynamicEntry alone.
func dynLen(d *hpack.Decoder) int {
	n := 0
	for {
		if _, _, ok := d.DynamicEntry(n); !ok {
			return n
		}
		n++
	}
}
func (d *ourDecoder) DynamicEntry(i int) (name, value string, ok bool) { return d.dec.DynamicEntry(i) }
func (d *ourDecoder) DynamicTableSize() (size, max uint32)             { return d.dec.DynamicTableSize() }

// deflater is nghttp2's encoder.
type deflater struct{ *hd.Deflater }

func (d deflater) name() string                                    { return "nghttp2 deflater" }
func (d deflater) settings(v uint32) error                         { return d.ChangeTableSize(v) }
func (d deflater) checkUpdates([]uint64) error                     { return nil }
func (d deflater) encode(dst []byte, l []hd.Field) ([]byte, error) { return d.Deflate(dst, l) }

// neverIndexed is nghttp2's own rule: authorization, and cookies under 20
// bytes.
func (d deflater) neverIndexed(f hd.Field) bool {
	return f.Name == "authorization" || f.Name == "cookie" && len(f.Value) < 20
}

// inflater is nghttp2's decoder.
type inflater struct{ *hd.Inflater }

func (f inflater) name() string                                        { return "nghttp2 inflater" }
func (f inflater) settings(v uint32) error                             { return f.ChangeTableSize(v) }
func (f inflater) decode(dst []hd.Field, b []byte) ([]hd.Field, error) { return f.Inflate(dst, b) }

func newDeflater(t *testing.T, max uint32) deflater {
	t.Helper()
	d, err := hd.NewDeflater(max)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	return deflater{d}
}

func newInflater(t *testing.T) inflater {
	t.Helper()
	f, err := hd.NewInflater()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	return inflater{f}
}

// step is one header block: the SETTINGS_HEADER_TABLE_SIZE changes that
// come before it (the decoders' maximum and the encoder's together, as
// when the encoder's side receives the SETTINGS frame the decoder's side
// sent and got acknowledged), then the list.
type step struct {
	settings []uint32
	list     []hd.Field
}

// leadingUpdates returns the dynamic table size updates (RFC 7541 §6.3)
// that block starts with.
func leadingUpdates(block []byte) ([]uint64, error) {
	var out []uint64
	for len(block) > 0 && block[0]&0xe0 == 0x20 {
		v := uint64(block[0] & 0x1f)
		block = block[1:]
		if v == 0x1f {
			for shift := 0; ; shift += 7 {
				if len(block) == 0 || shift > 28 {
					return out, errors.New("malformed size update")
				}
				b := block[0]
				block = block[1:]
				v += uint64(b&0x7f) << shift
				if b&0x80 == 0 {
					break
				}
			}
		}
		out = append(out, v)
	}
	return out, nil
}

// delivered checks a decoded list against the one encoded: same names and
// values in order, every sensitive field never-indexed, and no other field
// never-indexed unless the encoder's policy makes it so.
func delivered(got, want []hd.Field, policy func(hd.Field) bool) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d fields, want %d", len(got), len(want))
	}
	for i, g := range got {
		w := want[i]
		switch {
		case g.Name != w.Name || g.Value != w.Value:
			return fmt.Errorf("field %d is %v, want %v", i, g, w)
		case w.NoIndex && !g.NoIndex:
			return fmt.Errorf("field %d, %v, is sensitive but did not arrive never-indexed", i, w)
		case g.NoIndex && !w.NoIndex && !policy(g):
			return fmt.Errorf("field %d, %v, arrived never-indexed", i, g)
		}
	}
	return nil
}

func blockHex(b []byte) string {
	if len(b) > 512 {
		return fmt.Sprintf("%x... (%d bytes)", b[:512], len(b))
	}
	return fmt.Sprintf("%x", b)
}

// run sends steps from enc to every decoder in decs, and checks after
// every block that the first decoder delivered the list, that the others
// decoded exactly what it did, and that every table equals the encoder's.
// It returns the encoder's table after each block.
func run(t *testing.T, enc encSide, decs []decSide, steps []step) []snapshot {
	t.Helper()
	var block []byte
	var got, ref []hd.Field
	var snaps []snapshot
	for i, s := range steps {
		for _, v := range s.settings {
			if err := enc.settings(v); err != nil {
				t.Fatalf("block %d: %s: settings %d: %v", i, enc.name(), v, err)
			}
			for _, d := range decs {
				if err := d.settings(v); err != nil {
					t.Fatalf("block %d: %s: settings %d: %v", i, d.name(), v, err)
				}
			}
		}
		var err error
		if block, err = enc.encode(block[:0], s.list); err != nil {
			t.Fatalf("block %d: %s: %v", i, enc.name(), err)
		}
		if updates, err := leadingUpdates(block); err != nil {
			t.Fatalf("block %d: %s: %v in %s", i, enc.name(), err, blockHex(block))
		} else if err := enc.checkUpdates(updates); err != nil {
			t.Errorf("block %d (settings %v before it): %s: %v; block %s", i, s.settings, enc.name(), err, blockHex(block))
		}
		for j, d := range decs {
			if got, err = d.decode(got[:0], block); err != nil {
				t.Fatalf("block %d (settings %v before it): %s rejects %s's block %s: %v", i, s.settings, d.name(), enc.name(), blockHex(block), err)
			}
			if j == 0 {
				if err := delivered(got, s.list, enc.neverIndexed); err != nil {
					t.Fatalf("block %d: %s -> %s: %v; block %s", i, enc.name(), d.name(), err, blockHex(block))
				}
				ref = append(ref[:0], got...)
			} else if !slices.Equal(got, ref) && len(got)+len(ref) > 0 {
				t.Fatalf("block %d: %s decodes %v, %s %v; block %s", i, d.name(), got, decs[0].name(), ref, blockHex(block))
			}
		}
		want := snap(enc)
		for _, d := range decs {
			if ds := snap(d); !ds.equal(want) {
				t.Fatalf("block %d (settings %v before it): tables differ after %s:\n%s: %v\n%s: %v", i, s.settings, blockHex(block), enc.name(), want, d.name(), ds)
			}
		}
		snaps = append(snaps, want)
	}
	return snaps
}
