package hpack_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	xhpack "golang.org/x/net/http2/hpack"

	compat "github.com/metapack/metapack/compat/hpack"
)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// rfcC21 is RFC 7541 C.2.1: custom-key: custom-header, indexed.
const rfcC21 = "400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572"

func TestDecodeFullCases(t *testing.T) {
	type hf = compat.HeaderField
	tests := []struct {
		name    string
		setup   func(d *compat.Decoder)
		blocks  []string // earlier blocks, decoded first
		block   string
		want    []hf
		wantErr error  // compared with ==, when set
		errText string // Error() of the error, when set
	}{
		{name: "static indexed", block: "82 84 87",
			want: []hf{{Name: ":method", Value: "GET", Sensitive: false}, {Name: ":path", Value: "/", Sensitive: false}, {Name: ":scheme", Value: "https", Sensitive: false}}},
		{name: "RFC C.2.1 then indexed", blocks: []string{rfcC21}, block: "be",
			want: []hf{{Name: "custom-key", Value: "custom-header", Sensitive: false}}},
		{name: "never indexed is sensitive", block: "10 01 61 01 62",
			want: []hf{{Name: "a", Value: "b", Sensitive: true}}},
		{name: "empty block", block: "", want: nil},
		{name: "index 0", block: "80", wantErr: compat.DecodingError{Err: compat.InvalidIndexError(0)},
			errText: "decoding error: invalid indexed representation index 0"},
		{name: "index past the table", block: "be", wantErr: compat.DecodingError{Err: compat.InvalidIndexError(62)}},
		{name: "truncated", block: "400a 63", errText: "decoding error: truncated headers"},
		{name: "invalid Huffman padding", block: "00 81ff 00", wantErr: compat.ErrInvalidHuffman},
		{name: "size update too large", block: "3fe21f", errText: "decoding error: dynamic table size update too large"},
		{name: "size update after a field", block: "82 3fe11f",
			errText: "decoding error: dynamic table size update MUST occur at the beginning of a header block"},
		{name: "varint overflow", block: "ff ffffffffffffffffffff01", errText: "decoding error: varint integer overflow"},
		{name: "string over the limit", setup: func(d *compat.Decoder) { d.SetMaxStringLength(3) },
			block: rfcC21, wantErr: compat.ErrStringLength},
		{name: "string at the limit", setup: func(d *compat.Decoder) { d.SetMaxStringLength(13) },
			block: rfcC21, want: []hf{{Name: "custom-key", Value: "custom-header", Sensitive: false}}},
		{name: "emit disabled still indexes",
			setup:  func(d *compat.Decoder) { d.SetEmitEnabled(false) },
			blocks: []string{rfcC21}, block: "be", want: nil},
		{name: "lowered bound requires a size update",
			setup: func(d *compat.Decoder) {
				d.DecodeFull(unhex(t, rfcC21))
				d.SetAllowedMaxDynamicTableSize(10)
			},
			block: "82", errText: "decoding error: hpack: header block lacks the size update required after a lower SETTINGS_HEADER_TABLE_SIZE"},
		{name: "lowered bound with its size update",
			setup: func(d *compat.Decoder) {
				d.DecodeFull(unhex(t, rfcC21))
				d.SetAllowedMaxDynamicTableSize(10)
			},
			block: "2a 82", want: []hf{{Name: ":method", Value: "GET", Sensitive: false}}},
		{name: "SetMaxDynamicTableSize evicts",
			setup: func(d *compat.Decoder) {
				d.DecodeFull(unhex(t, rfcC21))
				d.SetMaxDynamicTableSize(0)
			},
			block: "be", wantErr: compat.DecodingError{Err: compat.InvalidIndexError(62)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := compat.NewDecoder(4096, func(compat.HeaderField) { t.Error("emit called by DecodeFull") })
			if tt.setup != nil {
				tt.setup(d)
			}
			for _, b := range tt.blocks {
				if _, err := d.DecodeFull(unhex(t, b)); err != nil {
					t.Fatal(err)
				}
			}
			got, err := d.DecodeFull(unhex(t, tt.block))
			if tt.wantErr == nil && tt.errText == "" {
				if err != nil {
					t.Fatalf("error %v", err)
				}
				if !reflect.DeepEqual(got, tt.want) {
					t.Fatalf("got %v, want %v", got, tt.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("got %v, no error", got)
			}
			if got != nil {
				t.Errorf("fields %v with the error", got)
			}
			if tt.wantErr != nil && err != tt.wantErr {
				t.Errorf("error %#v, want %#v", err, tt.wantErr)
			}
			if tt.errText != "" && err.Error() != tt.errText {
				t.Errorf("error %q, want %q", err, tt.errText)
			}
		})
	}
}

// TestWriteSplits feeds RFC C.2.1 and an indexed field split at every
// byte: the field comes out once, from the Write that completes it.
func TestWriteSplits(t *testing.T) {
	block := append(unhex(t, rfcC21), 0x82)
	for cut := 0; cut <= len(block); cut++ {
		var got []compat.HeaderField
		d := compat.NewDecoder(4096, func(f compat.HeaderField) { got = append(got, f) })
		d.Write(block[:cut])
		if n := len(got); (cut < len(block)-1 && n != 0) || (cut == len(block)-1 && n != 1) {
			t.Fatalf("cut %d: %d fields after the first Write", cut, n)
		}
		if n, err := d.Write(block[cut:]); err != nil || n != len(block)-cut {
			t.Fatalf("cut %d: Write = %d, %v", cut, n, err)
		}
		if err := d.Close(); err != nil {
			t.Fatalf("cut %d: Close: %v", cut, err)
		}
		want := []compat.HeaderField{{Name: "custom-key", Value: "custom-header"}, {Name: ":method", Value: "GET"}}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("cut %d: got %v", cut, got)
		}
	}
}

func TestCloseTruncated(t *testing.T) {
	d := compat.NewDecoder(4096, func(compat.HeaderField) {})
	if err := d.Close(); err != nil {
		t.Fatalf("Close of no block: %v", err)
	}
	if _, err := d.Write(unhex(t, "400a 6375")); err != nil {
		t.Fatal(err)
	}
	err := d.Close()
	if de, ok := err.(compat.DecodingError); !ok || de.Error() != "decoding error: truncated headers" {
		t.Fatalf("Close = %v, want truncated headers", err)
	}
}

func TestEmitControls(t *testing.T) {
	var a, b []string
	d := compat.NewDecoder(4096, func(f compat.HeaderField) { a = append(a, f.Name) })
	if !d.EmitEnabled() {
		t.Fatal("EmitEnabled false at start")
	}
	d.Write(unhex(t, "82"))
	d.SetEmitFunc(func(f compat.HeaderField) {
		b = append(b, f.Name)
		d.SetEmitEnabled(false) // from inside the callback: the rest is not emitted
	})
	d.Write(unhex(t, "84 87"))
	if d.EmitEnabled() {
		t.Fatal("EmitEnabled true after SetEmitEnabled(false)")
	}
	d.Write(unhex(t, rfcC21)) // not emitted, but indexed
	d.SetEmitEnabled(true)
	d.Write(unhex(t, "be"))
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, []string{":method"}) || !reflect.DeepEqual(b, []string{":path", "custom-key"}) {
		t.Fatalf("emitted %v then %v", a, b)
	}
}

// TestTableSizeAboveInitial shows the documented difference at
// NewDecoder: above 4096 bytes the table starts at 4096 until the peer
// sends a size update, unless SetMaxDynamicTableSize sets it as x/net's
// NewDecoder does.
func TestTableSizeAboveInitial(t *testing.T) {
	big := strings.Repeat("v", 3000)
	var buf bytes.Buffer
	enc := xhpack.NewEncoder(&buf) // an encoder that wrongly assumes 8192 without saying so
	enc.SetMaxDynamicTableSizeLimit(8192)
	enc.SetMaxDynamicTableSize(8192)
	enc.WriteField(xhpack.HeaderField{Name: "a", Value: big})
	enc.WriteField(xhpack.HeaderField{Name: "b", Value: big})
	block := append(buf.Bytes()[3:], 0xbf) // drop the size update; then index 63: "a"
	x := xhpack.NewDecoder(8192, nil)
	if _, err := x.DecodeFull(block); err != nil {
		t.Fatalf("x/net: %v", err)
	}
	d := compat.NewDecoder(8192, nil)
	if _, err := d.DecodeFull(block); err == nil {
		t.Fatal("compat accepted a table over 4096 bytes without a size update")
	}
	d = compat.NewDecoder(8192, nil)
	d.SetMaxDynamicTableSize(8192)
	got, err := d.DecodeFull(block)
	if err != nil || len(got) != 3 || got[2].Name != "a" {
		t.Fatalf("after SetMaxDynamicTableSize: %v, %v", len(got), err)
	}
}

// TestEncoderTableSize runs the same calls on both Encoders and compares
// MaxDynamicTableSize after each, and what x/net decodes from both.
func TestEncoderTableSize(t *testing.T) {
	steps := []struct {
		limit bool
		v     uint32
	}{
		{false, 8192}, {true, 8192}, {false, 8192}, {true, 100}, {false, 50},
		{true, 0}, {false, 10}, {true, 4096}, {false, 4096}, {false, 0}, {false, 300},
	}
	var xb, cb bytes.Buffer
	xe, ce := xhpack.NewEncoder(&xb), compat.NewEncoder(&cb)
	xd := xhpack.NewDecoder(8192, nil)
	if got := ce.MaxDynamicTableSize(); got != 4096 {
		t.Fatalf("initial MaxDynamicTableSize %d", got)
	}
	for i, s := range steps {
		if s.limit {
			xe.SetMaxDynamicTableSizeLimit(s.v)
			ce.SetMaxDynamicTableSizeLimit(s.v)
		} else {
			xe.SetMaxDynamicTableSize(s.v)
			ce.SetMaxDynamicTableSize(s.v)
		}
		if x, c := xe.MaxDynamicTableSize(), ce.MaxDynamicTableSize(); x != c {
			t.Fatalf("step %d: MaxDynamicTableSize %d, x/net %d", i, c, x)
		}
		cb.Reset()
		f := compat.HeaderField{Name: "x-step", Value: strings.Repeat("s", i)}
		if err := ce.WriteField(f); err != nil {
			t.Fatal(err)
		}
		got, err := xd.DecodeFull(cb.Bytes())
		if err != nil || len(got) != 1 || got[0] != f {
			t.Fatalf("step %d: x/net decoded %v, %v", i, got, err)
		}
	}
}

type shortWriter struct{}

func (shortWriter) Write(p []byte) (int, error) { return len(p) - 1, nil }

type failWriter struct{}

var errWrite = errors.New("write failed")

func (failWriter) Write(p []byte) (int, error) { return 0, errWrite }

func TestWriteFieldErrors(t *testing.T) {
	f := compat.HeaderField{Name: "a", Value: "b"}
	if err := compat.NewEncoder(shortWriter{}).WriteField(f); err != io.ErrShortWrite {
		t.Errorf("short write: %v", err)
	}
	if err := compat.NewEncoder(failWriter{}).WriteField(f); err != errWrite {
		t.Errorf("failed write: %v", err)
	}
}

func TestHuffman(t *testing.T) {
	for _, s := range []string{"", "a", "www.example.com", "no-cache", "\x00\xff\x80 binary \x7f", strings.Repeat("xyz", 100)} {
		if c, x := compat.HuffmanEncodeLength(s), xhpack.HuffmanEncodeLength(s); c != x {
			t.Errorf("HuffmanEncodeLength(%q) = %d, x/net %d", s, c, x)
		}
		enc := compat.AppendHuffmanString([]byte("pre"), s)
		if x := xhpack.AppendHuffmanString([]byte("pre"), s); !bytes.Equal(enc, x) {
			t.Errorf("AppendHuffmanString(%q) = %x, x/net %x", s, enc, x)
		}
		got, err := compat.HuffmanDecodeToString(enc[3:])
		if err != nil || got != s {
			t.Errorf("HuffmanDecodeToString(%q) = %q, %v", s, got, err)
		}
		var w bytes.Buffer
		n, err := compat.HuffmanDecode(&w, enc[3:])
		if err != nil || n != len(s) || w.String() != s {
			t.Errorf("HuffmanDecode(%q) = %d, %q, %v", s, n, w.String(), err)
		}
	}
	for _, bad := range [][]byte{{0xff}, {0xff, 0xff, 0xff, 0xff}, {0x00}} {
		_, xerr := xhpack.HuffmanDecodeToString(bad)
		if _, err := compat.HuffmanDecodeToString(bad); err != compat.ErrInvalidHuffman || xerr != xhpack.ErrInvalidHuffman {
			t.Errorf("HuffmanDecodeToString(%x) = %v, x/net %v", bad, err, xerr)
		}
		var w bytes.Buffer
		if n, err := compat.HuffmanDecode(&w, bad); err != compat.ErrInvalidHuffman || n != 0 || w.Len() != 0 {
			t.Errorf("HuffmanDecode(%x) = %d, %v", bad, n, err)
		}
	}
	if compat.ErrInvalidHuffman.Error() != xhpack.ErrInvalidHuffman.Error() ||
		compat.ErrStringLength.Error() != xhpack.ErrStringLength.Error() {
		t.Error("error strings differ from x/net's")
	}
}

// TestAllocs checks that static and interned names and static values
// cost nothing, and other values one allocation each.
func TestAllocs(t *testing.T) {
	var sink compat.HeaderField
	d := compat.NewDecoder(4096, func(f compat.HeaderField) { sink = f })
	static := unhex(t, "82 84 87 8c") // all static
	// literals without indexing: a new name with a static value, then
	// "x-custom: abc" (its name interned after the first block).
	lit := unhex(t, "00 08 782d637573746f6d 00 00 08 782d637573746f6d 03 616263")
	for _, c := range []struct {
		name  string
		block []byte
		want  float64
	}{{"static", static, 0}, {"custom", lit, 1}} {
		d.Write(c.block)
		d.Close()
		got := testing.AllocsPerRun(100, func() {
			d.Write(c.block)
			d.Close()
		})
		if got > c.want {
			t.Errorf("%s: %v allocs per block, want %v", c.name, got, c.want)
		}
	}
	_ = sink
}

// TestNilCallbacks checks that a nil emit function or writer is a
// discard, not a panic.
func TestNilCallbacks(t *testing.T) {
	d := compat.NewDecoder(4096, nil)
	if _, err := d.Write(unhex(t, rfcC21)); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	d.SetEmitFunc(nil)
	if _, err := d.Write([]byte{0xbe}); err != nil {
		t.Fatalf("indexed field after a nil SetEmitFunc: %v", err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	e := compat.NewEncoder(nil)
	if err := e.WriteField(compat.HeaderField{Name: "a", Value: "b"}); err != nil {
		t.Fatalf("WriteField to a nil writer: %v", err)
	}
}

// TestStringCacheBounded decodes thousands of distinct 4 KiB names and
// checks that each comes back right: the Decoder's string cache must give
// up slots rather than grow, and never hand out a stale string.
func TestStringCacheBounded(t *testing.T) {
	var got string
	d := compat.NewDecoder(4096, func(f compat.HeaderField) { got = f.Name })
	for i := range 3000 {
		name := strings.Repeat(string(rune('a'+i%26)), 4000) + strings.Repeat("z", i%50)
		// A literal without indexing: the raw new name, then value "x".
		blk := []byte{0x00, 0x7f}
		n := len(name) - 127
		for ; n >= 0x80; n >>= 7 {
			blk = append(blk, byte(n)|0x80)
		}
		blk = append(append(blk, byte(n)), name...)
		blk = append(blk, 0x01, 'x')
		if _, err := d.Write(blk); err != nil {
			t.Fatal(err)
		}
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
		if got != name {
			t.Fatalf("name %d: got %d bytes, want %d", i, len(got), len(name))
		}
	}
}

// TestIndexedFieldReusesString: a value the table indexed comes back, in
// each later indexed field, as the very string the literal emitted, with
// no allocation, even one too long for the string cache.
func TestIndexedFieldReusesString(t *testing.T) {
	long := strings.Repeat("v", 5000) // over the string cache's 4 KiB
	var buf bytes.Buffer
	e := compat.NewEncoder(&buf)
	e.SetMaxDynamicTableSizeLimit(8192)
	e.SetMaxDynamicTableSize(8192)
	if err := e.WriteField(compat.HeaderField{Name: "x-long", Value: long}); err != nil {
		t.Fatal(err)
	}
	first := bytes.Clone(buf.Bytes())
	if first[0] != 0x3f || first[3]&0xc0 != 0x40 {
		t.Fatalf("the encoder did not index the field: % x", first[:4])
	}
	var got []string
	d := compat.NewDecoder(8192, func(f compat.HeaderField) { got = append(got, f.Value) })
	if _, err := d.Write(first); err != nil {
		t.Fatal(err)
	}
	indexed := []byte{0xbe} // index 62: the entry just added
	if _, err := d.Write(indexed); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[1] != long {
		t.Fatalf("got %d fields, want the long value twice", len(got))
	}
	if puregoBuild {
		return // mdelem copies strings there: no identity to check
	}
	if unsafe.StringData(got[1]) != unsafe.StringData(got[0]) {
		t.Fatal("the indexed field is not the literal's string")
	}
	got = got[:0]
	if n := testing.AllocsPerRun(100, func() {
		got = got[:0]
		d.Write(indexed)
	}); n != 0 {
		t.Errorf("%v allocs per indexed field, want 0", n)
	}
}

// TestEmittedStringsNeverChange keeps every string the Decoder emits, over
// blocks of short and long values, Huffman-coded and raw, indexed and not,
// with evictions and a Close after each block, and checks at the end that
// each still holds what it held when emitted: the memory the strings view
// is never written again.
func TestEmittedStringsNeverChange(t *testing.T) {
	var wire bytes.Buffer
	e := compat.NewEncoder(&wire)
	type kept struct{ s, was string }
	var all []kept
	d := compat.NewDecoder(4096, func(f compat.HeaderField) {
		all = append(all, kept{f.Name, strings.Clone(f.Name)}, kept{f.Value, strings.Clone(f.Value)})
	})
	for i := range 400 {
		wire.Reset()
		for j := range 6 {
			v := strings.Repeat(string(rune('a'+(i+j)%26)), 1+(i*7+j*13)%150)
			if err := e.WriteField(compat.HeaderField{Name: fmt.Sprintf("x-%d", j), Value: v}); err != nil {
				t.Fatal(err)
			}
			if err := e.WriteField(compat.HeaderField{Name: "x-seq", Value: fmt.Sprint(i, j)}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := d.Write(wire.Bytes()); err != nil {
			t.Fatalf("block %d: %v", i, err)
		}
		if err := d.Close(); err != nil {
			t.Fatalf("block %d: %v", i, err)
		}
	}
	changed := 0
	for _, k := range all {
		if k.s != k.was {
			changed++
		}
	}
	if changed > 0 || len(all) != 2*400*12 {
		t.Fatalf("%d of %d emitted strings changed after they were emitted", changed, len(all))
	}
}

// TestZeroValues: a zero Decoder decodes as x/net's zero Decoder does
// (no dynamic table, emitting off until turned on), and a zero Encoder is
// NewEncoder(nil)'s, where x/net's panics. Both panicked before.
func TestZeroValues(t *testing.T) {
	blocks := [][]byte{
		unhex(t, rfcC21),   // indexed literal: no table to add it to
		{0xbe},             // index 62: invalid without a table
		{0x82, 0x84},       // static fields
		{0x3f, 0xe1, 0x1f}, // a size update above the allowed 0
	}
	for _, emit := range []bool{false, true} {
		for i, blk := range blocks {
			// Zero Decoders for each block: a failed block poisons the
			// drop-in.
			var x xhpack.Decoder
			var c compat.Decoder
			var xgot, cgot []xhpack.HeaderField
			if emit {
				x.SetEmitEnabled(true)
				x.SetEmitFunc(func(f xhpack.HeaderField) { xgot = append(xgot, f) })
				c.SetEmitEnabled(true)
				c.SetEmitFunc(func(f compat.HeaderField) { cgot = append(cgot, f) })
			}
			_, xerr := x.Write(blk)
			if xerr == nil {
				xerr = x.Close()
			}
			_, cerr := c.Write(blk)
			if cerr == nil {
				cerr = c.Close()
			}
			if (xerr == nil) != (cerr == nil) || !reflect.DeepEqual(xgot, cgot) {
				t.Errorf("emit %v, block %d: fields %v, error %v; x/net's zero Decoder: %v, %v", emit, i, cgot, cerr, xgot, xerr)
			}
		}
	}
	var full compat.Decoder
	if hf, err := full.DecodeFull([]byte{0x82}); err != nil || hf != nil {
		t.Errorf("zero Decoder's DecodeFull = %v, %v; want no fields (emitting is off), no error", hf, err)
	}
	var e compat.Encoder
	if err := e.WriteField(compat.HeaderField{Name: "a", Value: "b"}); err != nil {
		t.Errorf("zero Encoder's WriteField: %v", err)
	}
	if got := e.MaxDynamicTableSize(); got != 4096 {
		t.Errorf("zero Encoder's MaxDynamicTableSize = %d, want 4096", got)
	}
	var e2 compat.Encoder
	e2.SetMaxDynamicTableSizeLimit(100)
	e2.SetMaxDynamicTableSize(8192)
	if got := e2.MaxDynamicTableSize(); got != 100 {
		t.Errorf("zero Encoder limited to 100: MaxDynamicTableSize = %d", got)
	}
}

// TestHuffmanDecodeNilWriter: a nil writer discards the decoded string
// and its length is returned; x/net panics.
func TestHuffmanDecodeNilWriter(t *testing.T) {
	enc := compat.AppendHuffmanString(nil, "www.example.com")
	if n, err := compat.HuffmanDecode(nil, enc); n != len("www.example.com") || err != nil {
		t.Errorf("HuffmanDecode(nil, ...) = %d, %v", n, err)
	}
	if _, err := compat.HuffmanDecode(nil, []byte{0x00}); err != compat.ErrInvalidHuffman {
		t.Errorf("HuffmanDecode(nil, bad) = %v, want ErrInvalidHuffman", err)
	}
}
