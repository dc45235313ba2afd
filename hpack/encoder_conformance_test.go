package hpack

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	xhpack "golang.org/x/net/http2/hpack"

	"github.com/metapack/metapack/internal/story"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// encPeer is the receiving side of a connection: our Decoder and x/net's,
// fed the same blocks.
type encPeer struct {
	ours *Decoder
	xnet *xhpack.Decoder
	out  mdelem.Batch
}

func newEncPeer(tableSize uint32) *encPeer {
	d := NewDecoder(tableSize)
	d.SetMaxHeaderListSize(1 << 30)
	d.SetMaxFields(1 << 20)
	d.SetMaxStringLength(1 << 30)
	x := xhpack.NewDecoder(tableSize, nil)
	x.SetMaxStringLength(1 << 30)
	return &encPeer{ours: d, xnet: x}
}

// setTableSize applies a new SETTINGS_HEADER_TABLE_SIZE on both sides of
// the connection.
func (p *encPeer) setTableSize(e *Encoder, v uint32) {
	e.SetMaxDynamicTableSize(v)
	p.ours.SetAllowedMaxDynamicTableSize(v)
	p.xnet.SetAllowedMaxDynamicTableSize(v)
}

// encField is a field as the tests compare them.
type encField struct {
	Name, Value string
	Sensitive   bool
}

func (f encField) String() string {
	return fmt.Sprintf("%q: %q (sensitive %v)", f.Name, f.Value, f.Sensitive)
}

// check decodes block with both decoders and compares the fields with
// want, where must reports which fields must come out Sensitive (fields the
// encoder chose to never-index may too). It then compares the encoder's
// dynamic table with our decoder's.
func (p *encPeer) check(t *testing.T, where string, e *Encoder, block []byte, want []encField) {
	t.Helper()
	p.out.Reset()
	if err := p.ours.Decode(&p.out, block); err != nil {
		t.Fatalf("%s: our decoder: %v\nblock %x", where, err, block)
	}
	xf, err := p.xnet.DecodeFull(block)
	if err != nil {
		t.Fatalf("%s: x/net's decoder: %v\nblock %x", where, err, block)
	}
	if len(xf) != len(want) || p.out.Len() != len(want) {
		t.Fatalf("%s: got %d fields (x/net) and %d (ours), want %d", where, len(xf), p.out.Len(), len(want))
	}
	for i, w := range want {
		f := p.out.At(i)
		got := encField{f.Name.String(), f.Value.String(), f.Sensitive()}
		xgot := encField{xf[i].Name, xf[i].Value, xf[i].Sensitive}
		if got.Name != w.Name || got.Value != w.Value || xgot.Name != w.Name || xgot.Value != w.Value {
			t.Fatalf("%s: field %d: got %v (ours), %v (x/net), want %v", where, i, got, xgot, w)
		}
		if w.Sensitive && (!got.Sensitive || !xgot.Sensitive) {
			t.Fatalf("%s: field %d: sensitive field decoded as %v (ours), %v (x/net)", where, i, got, xgot)
		}
		if got.Sensitive != xgot.Sensitive {
			t.Fatalf("%s: field %d: decoders disagree: %v (ours), %v (x/net)", where, i, got, xgot)
		}
	}
	encCheckTables(t, where, e, p.ours)
}

// encCheckTables compares the encoder's dynamic table with the decoder's.
func encCheckTables(t *testing.T, where string, e *Encoder, d *Decoder) {
	t.Helper()
	es, em := e.dynamicTableSize()
	ds, dm := d.DynamicTableSize()
	if e.dynamicTableLen() != d.table.Len() || es != ds || em != dm {
		t.Fatalf("%s: encoder table has %d entries, size %d/%d; decoder's %d, %d/%d",
			where, e.dynamicTableLen(), es, em, d.table.Len(), ds, dm)
	}
	for i := range e.dynamicTableLen() {
		en, ev, _ := e.dynamicEntry(i)
		dn, dv, _ := d.DynamicEntry(i)
		if en != dn || ev != dv {
			t.Fatalf("%s: dynamic entry %d: encoder %q: %q, decoder %q: %q", where, i, en, ev, dn, dv)
		}
	}
}

// encWant returns hs as expected fields.
func encWant(hs []story.Header) []encField {
	out := make([]encField, len(hs))
	for i, h := range hs {
		out[i] = encField{Name: h.Name, Value: h.Value}
	}
	return out
}

// encSizeChanges are the settings changes the story test makes between
// blocks, cycling: each inner list is applied in order before one block.
var encSizeChanges = [][]uint32{
	{1024},
	{0, 4096},        // flush, then back: two updates
	{512, 256, 2048}, // lowest 256, final 2048
	{65536},
	{100, 100},
	{4096},
}

func TestEncoderStories(t *testing.T) {
	raw := encRawStories(t)
	for _, size := range []uint32{0, 256, 4096, 65536} {
		for li, limit := range []uint32{size, DefaultTableSize} {
			if li == 1 && limit == size {
				continue
			}
			for _, changes := range []bool{false, true} {
				name := fmt.Sprintf("size=%d/limit=%d/changes=%v", size, limit, changes)
				t.Run(name, func(t *testing.T) {
					for si, lists := range raw {
						e := NewEncoder(size)
						e.SetMaxDynamicTableSizeLimit(limit)
						p := newEncPeer(size)
						var buf []byte
						for ci, hs := range lists {
							if changes && ci%5 == 4 {
								for _, v := range encSizeChanges[(ci/5)%len(encSizeChanges)] {
									p.setTableSize(e, v)
								}
							}
							buf = e.AppendBlock(buf[:0], encBatch(hs))
							p.check(t, fmt.Sprintf("story %d case %d", si, ci), e, buf, encWant(hs))
						}
					}
				})
			}
		}
	}
}

// encRandomNames mixes static names, gRPC keys, made-up and odd names.
var encRandomNames = []string{
	":authority", ":method", ":path", ":scheme", ":status", "accept-encoding",
	"authorization", "proxy-authorization", "cookie", "set-cookie", "content-type",
	"grpc-timeout", "grpc-status", "traceparent", "x-request-id", "x-b3-traceid",
	"", "X-Upper", "x-\x00nul", strings.Repeat("n", 130),
}

// encRandomValue returns a value: often from a small pool (so that tables
// get hits), sometimes random bytes of any kind and length.
func encRandomValue(r *rand.Rand) string {
	switch r.IntN(6) {
	case 0, 1:
		return []string{"", "GET", "/", "200", "gzip, deflate", "application/grpc", "trailers", "a-value"}[r.IntN(8)]
	case 2:
		return fmt.Sprintf("v%d", r.IntN(20))
	case 3:
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = byte(r.UintN(256))
		}
		return string(b)
	case 4:
		return strings.Repeat(string(rune('a'+r.IntN(26))), r.IntN(300))
	}
	return fmt.Sprintf("unique-%d-%d", r.Int64(), r.Int64())
}

func encRandomList(r *rand.Rand) ([]encField, *mdelem.Batch) {
	n := r.IntN(12)
	want := make([]encField, n)
	b := mdelem.NewBatch(n, 0)
	for i := range want {
		w := encField{Name: encRandomNames[r.IntN(len(encRandomNames))], Value: encRandomValue(r), Sensitive: r.IntN(10) == 0}
		want[i] = w
		var f mdelem.Field
		// Vary the storage kinds the encoder sees.
		if a := staticdata.Lookup(w.Value); a != nil && r.IntN(2) == 0 {
			f = mdelem.From(mdelem.BorrowString(w.Name), a)
		} else {
			f = mdelem.From(mdelem.BorrowString(w.Name), mdelem.BorrowString(w.Value))
		}
		b.Append(f.WithSensitive(w.Sensitive))
	}
	return want, b
}

// TestEncoderRandom is a property test with a fixed seed: random header
// lists, random table sizes and settings changes, custom policies; every
// block must decode to its input with both decoders, and the tables must
// agree.
func TestEncoderRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	sizes := []uint32{0, 40, 64, 256, 1000, 4096}
	policies := []indexPolicy{
		nil,
		func(mdelem.Field) indexing { return indexIncremental },
		func(mdelem.Field) indexing { return indexNone },
		func(f mdelem.Field) indexing {
			if f.Value.Len()%3 == 0 {
				return indexNever
			}
			return indexDefault
		},
	}
	for conn := range 500 {
		size := sizes[r.IntN(len(sizes))]
		e := policyEncoder{NewEncoder(size), policies[r.IntN(len(policies))]}
		e.SetMaxDynamicTableSizeLimit(sizes[r.IntN(len(sizes))])
		p := newEncPeer(size)
		var buf []byte
		for blk := range 30 {
			if r.IntN(8) == 0 {
				for range 1 + r.IntN(3) {
					p.setTableSize(e.Encoder, sizes[r.IntN(len(sizes))])
				}
			}
			want, b := encRandomList(r)
			if r.IntN(2) == 0 {
				buf = e.AppendBlock(buf[:0], b)
			} else {
				buf = buf[:0]
				for _, f := range b.All() {
					buf = e.AppendField(buf, f)
				}
				if b.Len() == 0 {
					buf = e.AppendBlock(buf, b) // the size updates
				}
			}
			p.check(t, fmt.Sprintf("connection %d block %d", conn, blk), e.Encoder, buf, want)
		}
	}
}
