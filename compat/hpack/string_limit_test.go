package hpack_test

import (
	"reflect"
	"testing"

	compat "github.com/metapack/metapack/compat/hpack"
)

// TestWriteStringLength checks x/net's contract for SetMaxStringLength:
// the Write whose bytes take a string over the limit returns
// ErrStringLength. The fields before it are emitted, Close reports the
// error again, and the next block decodes against a table still in step
// with the encoder's (the over-limit field was indexed).
func TestWriteStringLength(t *testing.T) {
	// :method GET, then custom-key: custom-header with incremental
	// indexing (RFC 7541 C.2.1); the 13-byte value is over a limit of 12.
	block := append([]byte{0x82}, unhex(t, rfcC21)...)
	valueEnd := len(block)
	for cut := 1; cut < len(block); cut++ {
		var got []compat.HeaderField
		d := compat.NewDecoder(4096, func(f compat.HeaderField) { got = append(got, f) })
		d.SetMaxStringLength(12)
		_, err1 := d.Write(block[:cut])
		_, err2 := d.Write(block[cut:])
		// The value's length prefix is at block[prefixAt]: no Write
		// before it reports the limit, and exactly one Write does.
		prefixAt := valueEnd - 14
		if cut <= prefixAt && err1 != nil {
			t.Fatalf("cut %d: first Write = %v before the value's length", cut, err1)
		}
		if (err1 == compat.ErrStringLength) == (err2 == compat.ErrStringLength) || (err1 != nil && err2 != nil) {
			t.Fatalf("cut %d: Writes = %v, %v; want ErrStringLength from one of them", cut, err1, err2)
		}
		if err := d.Close(); err != compat.ErrStringLength {
			t.Fatalf("cut %d: Close = %v, want ErrStringLength", cut, err)
		}
		if want := []compat.HeaderField{{Name: ":method", Value: "GET"}}; !reflect.DeepEqual(got, want) {
			t.Fatalf("cut %d: emitted %v, want %v", cut, got, want)
		}
		// Index 62 is the field the first block added.
		d.SetMaxStringLength(-1)
		got = nil
		if _, err := d.Write([]byte{0xbe}); err != nil {
			t.Fatalf("cut %d: next block: %v", cut, err)
		}
		if err := d.Close(); err != nil {
			t.Fatalf("cut %d: next block's Close: %v", cut, err)
		}
		if want := []compat.HeaderField{{Name: "custom-key", Value: "custom-header"}}; !reflect.DeepEqual(got, want) {
			t.Fatalf("cut %d: next block emitted %v, want %v", cut, got, want)
		}
	}
}
