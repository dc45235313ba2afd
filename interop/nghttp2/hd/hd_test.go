//go:build nghttp2

package hd

import (
	"encoding/hex"
	"slices"
	"testing"
)

type entry struct{ name, value string }

type table interface {
	DynamicTableLen() int
	DynamicEntry(i int) (name, value string, ok bool)
	DynamicTableSize() (size, max uint32)
}

func entries(t table) []entry {
	var out []entry
	for i := range t.DynamicTableLen() {
		n, v, ok := t.DynamicEntry(i)
		if !ok {
			panic("DynamicEntry below DynamicTableLen is not ok")
		}
		out = append(out, entry{n, v})
	}
	return out
}

func newInflater(t *testing.T) *Inflater {
	t.Helper()
	f, err := NewInflater()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	return f
}

func newDeflater(t *testing.T, max uint32) *Deflater {
	t.Helper()
	d, err := NewDeflater(max)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	return d
}

// TestInflateRFC7541C3 decodes the three requests of RFC 7541 Appendix C.3
// and checks the fields and the dynamic table after each.
func TestInflateRFC7541C3(t *testing.T) {
	steps := []struct {
		block  string
		fields []Field
		table  []entry
		size   uint32
	}{
		{
			"828684410f7777772e6578616d706c652e636f6d",
			[]Field{{":method", "GET", false}, {":scheme", "http", false}, {":path", "/", false}, {":authority", "www.example.com", false}},
			[]entry{{":authority", "www.example.com"}},
			57,
		},
		{
			"828684be58086e6f2d6361636865",
			[]Field{{":method", "GET", false}, {":scheme", "http", false}, {":path", "/", false}, {":authority", "www.example.com", false}, {"cache-control", "no-cache", false}},
			[]entry{{"cache-control", "no-cache"}, {":authority", "www.example.com"}},
			110,
		},
		{
			"828785bf400a637573746f6d2d6b65790c637573746f6d2d76616c7565",
			[]Field{{":method", "GET", false}, {":scheme", "https", false}, {":path", "/index.html", false}, {":authority", "www.example.com", false}, {"custom-key", "custom-value", false}},
			[]entry{{"custom-key", "custom-value"}, {"cache-control", "no-cache"}, {":authority", "www.example.com"}},
			164,
		},
	}
	f := newInflater(t)
	for i, s := range steps {
		block, _ := hex.DecodeString(s.block)
		got, err := f.Inflate(nil, block)
		if err != nil {
			t.Fatalf("block %d: %v", i, err)
		}
		if !slices.Equal(got, s.fields) {
			t.Errorf("block %d: fields %v, want %v", i, got, s.fields)
		}
		if e := entries(f); !slices.Equal(e, s.table) {
			t.Errorf("block %d: table %q, want %q", i, e, s.table)
		}
		if size, max := f.DynamicTableSize(); size != s.size || max != 4096 {
			t.Errorf("block %d: table size %d/%d, want %d/4096", i, size, max, s.size)
		}
	}
}

// TestInflateRejects checks that the wrapper reports the blocks nghttp2
// rejects as NGHTTP2_ERR_HEADER_COMP, and that a rejected inflater stays
// unusable.
func TestInflateRejects(t *testing.T) {
	tests := []struct {
		name     string
		settings []uint32 // ChangeTableSize calls before the block
		block    string
	}{
		{"update after a field", nil, "8220"},
		{"index 0", nil, "80"},
		{"index past the tables", nil, "be"},
		{"update above the setting", nil, "3fe21f"}, // 4097
		{"missing update after a reduction", []uint32{100}, "82"},
		{"empty block after a reduction", []uint32{100}, ""},
		{"truncated literal", nil, "400a6375"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newInflater(t)
			for _, s := range tt.settings {
				if err := f.ChangeTableSize(s); err != nil {
					t.Fatal(err)
				}
			}
			block, _ := hex.DecodeString(tt.block)
			if got, err := f.Inflate(nil, block); !IsHeaderComp(err) {
				t.Fatalf("Inflate(%s) = %v, %v; want NGHTTP2_ERR_HEADER_COMP", tt.block, got, err)
			}
			if _, err := f.Inflate(nil, []byte{0x82}); !IsHeaderComp(err) {
				t.Fatalf("after an error, Inflate(82) = %v; want NGHTTP2_ERR_HEADER_COMP", err)
			}
		})
	}
}

// TestDeflateInflate sends lists through nghttp2's deflater and inflater,
// with a table size change and a never-indexed field, and checks that the
// two tables agree.
func TestDeflateInflate(t *testing.T) {
	d := newDeflater(t, 65536)
	f := newInflater(t)
	lists := [][]Field{
		{{":method", "GET", false}, {"x-a", "1", false}, {"secret", "s3", true}},
		{{"x-a", "1", false}, {"secret", "s3", true}, {"x-b", string(make([]byte, 300)), false}},
		{},
		{{"x-c", "\x00\xff", false}},
	}
	for i, list := range lists {
		if i == 2 {
			if err := d.ChangeTableSize(100); err != nil {
				t.Fatal(err)
			}
			if err := f.ChangeTableSize(100); err != nil {
				t.Fatal(err)
			}
		}
		block, err := d.Deflate(nil, list)
		if err != nil {
			t.Fatalf("list %d: %v", i, err)
		}
		got, err := f.Inflate(nil, block)
		if err != nil {
			t.Fatalf("list %d: %v (block %x)", i, err, block)
		}
		if !slices.Equal(got, list) && !(len(got) == 0 && len(list) == 0) {
			t.Errorf("list %d: got %v, want %v", i, got, list)
		}
		if de, fe := entries(d), entries(f); !slices.Equal(de, fe) {
			t.Errorf("list %d: deflater table %q, inflater table %q", i, de, fe)
		}
		ds, dm := d.DynamicTableSize()
		fs, fm := f.DynamicTableSize()
		if ds != fs || dm != fm {
			t.Errorf("list %d: deflater table size %d/%d, inflater %d/%d", i, ds, dm, fs, fm)
		}
	}
	if _, max := f.DynamicTableSize(); max != 100 {
		t.Errorf("inflater's maximum %d after the change to 100", max)
	}
}

// TestDeflateAppends checks that Deflate appends to dst, growing it.
func TestDeflateAppends(t *testing.T) {
	d := newDeflater(t, 4096)
	out, err := d.Deflate([]byte("ab"), []Field{{":method", "GET", false}})
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != "ab\x82" {
		t.Fatalf("Deflate appended %x, want 616282", out)
	}
}
