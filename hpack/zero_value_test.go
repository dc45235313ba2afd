package hpack

import (
	"errors"
	"testing"

	"github.com/metapack/metapack/mdelem"
)

// TestZeroValues: the zero Decoder is NewDecoder(0), limits included, and the
// zero Encoder encodes without one until both its limit and the peer's
// setting are raised; what it sends decodes to the fields it was given.
func TestZeroValues(t *testing.T) {
	var d Decoder
	b := mdelem.NewBatch(0, 0)
	if err := d.Decode(b, []byte{0x82, 0x84}); err != nil || b.Len() != 2 {
		t.Fatalf("zero Decoder, static fields: %d fields, %v", b.Len(), err)
	}
	var ie *DecodingError
	if err := (&Decoder{}).Decode(b, []byte{0xbe}); !errors.As(err, &ie) || ie.Err != ErrInvalidIndex || ie.Index != 62 {
		t.Fatalf("zero Decoder, index 62: %v, want an invalid index", err)
	}

	// The default field limit, and a limit set on a zero Decoder, hold.
	many := make([]byte, defaultMaxFields+1)
	for i := range many {
		many[i] = 0x82
	}
	var le *DecodingError
	if err := (&Decoder{}).Decode(b, many); !errors.As(err, &le) || !errors.Is(err, ErrFieldCount) {
		t.Errorf("zero Decoder, %d fields: %v, want the default field limit", len(many), err)
	}
	var three Decoder
	three.SetMaxFields(3)
	if err := three.Decode(b, many[:3]); err != nil {
		t.Errorf("zero Decoder limited to 3 fields, 3 fields: %v", err)
	}
	if err := three.Decode(b, many[:4]); !errors.Is(err, ErrFieldCount) {
		t.Errorf("zero Decoder limited to 3 fields, 4 fields: %v", err)
	}

	var e Encoder
	in := mdelem.NewBatch(0, 0)
	in.Append(mdelem.From(mdelem.BorrowString("x-custom"), mdelem.BorrowString("a value")))
	in.Append(mdelem.From(mdelem.BorrowString(":path"), mdelem.BorrowString("/")))
	dec := NewDecoder(DefaultTableSize)
	for round := range 3 {
		if round == 2 {
			e.SetMaxDynamicTableSizeLimit(DefaultTableSize)
			e.SetMaxDynamicTableSize(DefaultTableSize)
		}
		wire := e.AppendBlock(nil, in)
		out := mdelem.NewBatch(0, 0)
		if err := dec.Decode(out, wire); err != nil {
			t.Fatalf("round %d: % x: %v", round, wire, err)
		}
		if out.Len() != 2 || out.At(0).Name.String() != "x-custom" || out.At(0).Value.String() != "a value" {
			t.Fatalf("round %d: decoded %d fields", round, out.Len())
		}
		if _, m := e.dynamicTableSize(); (m != 0) != (round == 2) {
			t.Errorf("round %d: the zero Encoder's table maximum is %d", round, m)
		}
	}
	if dec.table.Len() == 0 {
		t.Error("the zero Encoder indexed nothing once its table was raised")
	}
}

// TestDecodingErrorWithoutReason: a DecodingError made without Err still
// formats.
func TestDecodingErrorWithoutReason(t *testing.T) {
	if got := (&DecodingError{Offset: 3}).Error(); got != "hpack: decoding error at byte 3: malformed header block" {
		t.Errorf("Error() = %q", got)
	}
}
