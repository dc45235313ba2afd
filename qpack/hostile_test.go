package qpack

import (
	"errors"
	"strings"
	"testing"

	"github.com/metapack/metapack/mdelem"
)

// b.2's encoder stream: capacity 220, then :authority and :path entries.
const b2Encoder = "3fbd01 c00f 7777 772e 6578 616d 706c 652e 636f 6d c10c 2f73 616d 706c 652f 7061 7468"

// TestHostileInput: each hostile input gets a typed error with its RFC
// 9204 code and the right reason, never a panic.
func TestHostileInput(t *testing.T) {
	for _, tc := range []struct {
		name     string
		capacity uint64 // advertised; 220 if 0
		blocked  uint64
		encoder  string // encoder-stream bytes fed first
		sections []string
		code     ErrorCode
		reason   error
	}{
		{name: "capacity above the advertised one", capacity: 100, encoder: "3fbd01", code: ErrCodeEncoderStream, reason: ErrCapacity},
		{name: "insert larger than the capacity", encoder: "3f21 " + "5e" + strings.Repeat("61", 30) + "03616263", code: ErrCodeEncoderStream, reason: ErrEntryTooLarge},
		{name: "insert whose declared length alone exceeds the capacity", encoder: "3fbd01 5a" + strings.Repeat("61", 26) + "7f ffff ff0f", code: ErrCodeEncoderStream, reason: ErrEntryTooLarge},
		{name: "Required Insert Count above 2*MaxEntries", sections: []string{"0d00"}, code: ErrCodeDecompressionFailed, reason: ErrRequiredInserts},
		{name: "invalid Required Insert Count encoding", sections: []string{"0c00"}, code: ErrCodeDecompressionFailed, reason: ErrRequiredInserts},
		{name: "Required Insert Count with no table", capacity: 1, sections: []string{"0100"}, code: ErrCodeDecompressionFailed, reason: ErrRequiredInserts},
		{name: "Base below zero", encoder: b2Encoder, sections: []string{"0382 10"}, code: ErrCodeDecompressionFailed, reason: ErrBase},
		{name: "Required Insert Count above the references", encoder: b2Encoder, sections: []string{"0300 c1"}, code: ErrCodeDecompressionFailed, reason: ErrRequiredInserts},
		{name: "reference at the Required Insert Count", encoder: b2Encoder, sections: []string{"0280 11"}, code: ErrCodeDecompressionFailed, reason: ErrInvalidIndex},
		{name: "index to an evicted entry", encoder: b2Encoder + " 3f01", sections: []string{"0200 80"}, code: ErrCodeDecompressionFailed, reason: ErrInvalidIndex},
		{name: "Duplicate of an evicted entry", encoder: b2Encoder + " 3f01 00", code: ErrCodeEncoderStream, reason: ErrInvalidIndex},
		{name: "Duplicate of an absent entry", encoder: "3fbd01 00", code: ErrCodeEncoderStream, reason: ErrInvalidIndex},
		{name: "name reference to an absent entry", encoder: "3fbd01 8103616263", code: ErrCodeEncoderStream, reason: ErrInvalidIndex},
		{name: "static index past the table (encoder stream)", encoder: "3fbd01 ff24 03616263", code: ErrCodeEncoderStream, reason: ErrInvalidStaticIndex},
		{name: "static index past the table (section)", sections: []string{"0000 ff24"}, code: ErrCodeDecompressionFailed, reason: ErrInvalidStaticIndex},
		{name: "more blocked streams than allowed", blocked: 1, encoder: "3fbd01", sections: []string{"0200 80", "0200 80"}, code: ErrCodeDecompressionFailed, reason: ErrTooManyBlocked},
		{name: "integer over 62 bits (encoder stream)", encoder: "3f ffff ffff ffff ffff ff7f", code: ErrCodeEncoderStream, reason: ErrIntegerOverflow},
		{name: "integer over 62 bits (section)", sections: []string{"ff ffff ffff ffff ffff ff7f 00"}, code: ErrCodeDecompressionFailed, reason: ErrIntegerOverflow},
		{name: "bad Huffman (encoder stream, EOS)", encoder: "3fbd01 c184 ffff ffff", code: ErrCodeEncoderStream, reason: ErrInvalidHuffman},
		{name: "bad Huffman (section, padding)", sections: []string{"0000 5182 0000"}, code: ErrCodeDecompressionFailed, reason: ErrInvalidHuffman},
		{name: "section ends inside a field line", sections: []string{"0000 510b 2f69"}, code: ErrCodeDecompressionFailed, reason: ErrTruncated},
		{name: "section ends inside its prefix", sections: []string{"00"}, code: ErrCodeDecompressionFailed, reason: ErrTruncated},
	} {
		t.Run(tc.name, func(t *testing.T) {
			capacity := tc.capacity
			if capacity == 0 {
				capacity = 220
			}
			d := NewDecoder(capacity, tc.blocked)
			var err error
			if tc.encoder != "" {
				err = d.WriteEncoderStream(unhex(t, tc.encoder))
			}
			for i, s := range tc.sections {
				if err != nil {
					break
				}
				if err = d.Decode(mdelem.NewBatch(4, 64), uint64(4*i), unhex(t, s)); err == ErrBlocked {
					err = nil
				}
			}
			var e *Error
			if !errors.As(err, &e) || e.Code != tc.code || !errors.Is(err, tc.reason) {
				t.Fatalf("got %v, want %v with %v", err, tc.code, tc.reason)
			}
			// The connection error sticks.
			if err := d.Decode(nil, 400, unhex(t, "0000")); !errors.Is(err, ErrDecoderPoisoned) {
				t.Errorf("after the error: %v, want ErrDecoderPoisoned", err)
			}
		})
	}
}

// TestEncoderStreamFlood: a million inserts with no section keep the table
// within its capacity and the Decoder's buffers bounded.
func TestEncoderStreamFlood(t *testing.T) {
	d := NewDecoder(4096, 16)
	if err := d.WriteEncoderStream(unhex(t, "3fe11f")); err != nil { // capacity 4096
		t.Fatal(err)
	}
	insert := unhex(t, "c5 0a 2f61616161616161612f") // :path from the static table
	chunk := make([]byte, 0, 1000*len(insert))
	for range 1000 {
		chunk = append(chunk, insert...)
	}
	for i := range 1000 {
		// Split each write mid-instruction too.
		cut := i % len(insert)
		if err := d.WriteEncoderStream(chunk[:len(chunk)-cut]); err != nil {
			t.Fatal(err)
		}
		if err := d.WriteEncoderStream(chunk[len(chunk)-cut:]); err != nil {
			t.Fatal(err)
		}
	}
	size, capacity := d.TableSize()
	if d.InsertCount() != 1e6 || size > capacity || capacity != 4096 {
		t.Errorf("%d inserts, size %d of %d", d.InsertCount(), size, capacity)
	}
	if cap(d.partial) > 64 {
		t.Errorf("the partial-instruction buffer grew to %d bytes", cap(d.partial))
	}
}

// TestDecoderStreamErrors: the encoder rejects bad decoder instructions
// with QPACK_DECODER_STREAM_ERROR.
func TestDecoderStreamErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		input  string
		reason error
	}{
		{"acknowledgment with nothing outstanding", "84", ErrUnknownStream},
		{"zero increment", "00", ErrZeroIncrement},
		{"increment beyond the inserts sent", "05", ErrIncrement},
		{"integer over 62 bits", "ff ffff ffff ffff ffff ff7f", ErrIntegerOverflow},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := NewEncoder()
			e.SetPeerSettings(4096, 16)
			b := mdelem.NewBatch(4, 64)
			b.Append(mdelem.From(mdelem.BorrowString("x-a"), mdelem.BorrowString("1")))
			e.AppendSection(nil, nil, 0, b) // one insert, acknowledged below only by tc's bytes
			err := e.WriteDecoderStream(unhex(t, tc.input))
			var qe *Error
			if !errors.As(err, &qe) || qe.Code != ErrCodeDecoderStream || !errors.Is(err, tc.reason) {
				t.Fatalf("got %v, want QPACK_DECODER_STREAM_ERROR with %v", err, tc.reason)
			}
		})
	}
}

// TestLimitsAreStreamErrors: a section over a limit is a stream error,
// acknowledged, with the table in step and the Decoder usable.
func TestLimitsAreStreamErrors(t *testing.T) {
	d := NewDecoder(220, 100)
	if err := d.WriteEncoderStream(unhex(t, b2Encoder)); err != nil {
		t.Fatal(err)
	}
	d.AppendDecoderStream(nil)
	for _, tc := range []struct {
		name   string
		set    func()
		reason error
	}{
		{"field count", func() { d.SetMaxFields(1) }, ErrFieldCount},
		{"section size", func() { d.SetMaxFieldSectionSize(60) }, ErrFieldSectionSize},
		{"string length", func() { d.SetMaxStringLength(5) }, ErrStringLength},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.set()
			defer func() { d.SetMaxFields(0); d.SetMaxFieldSectionSize(0); d.SetMaxStringLength(0) }()
			b := mdelem.NewBatch(4, 64)
			// :authority and :path from the table, then a literal /index.html.
			err := d.Decode(b, 4, unhex(t, "0381 10 11 510b 2f69 6e64 6578 2e68 746d 6c"))
			if !IsStreamError(err) || !errors.Is(err, tc.reason) {
				t.Fatalf("got %v, want a stream error with %v", err, tc.reason)
			}
			if got := d.AppendDecoderStream(nil); string(got) != "\x84" {
				t.Errorf("decoder stream %x, want the acknowledgment 84", got)
			}
			if err := d.Decode(nil, 8, unhex(t, "0000 d1")); err != nil {
				t.Errorf("the Decoder is not usable after the stream error: %v", err)
			}
		})
	}
}

// TestEncoderStreamFragments feeds Appendix B's encoder stream one byte
// at a time, and then in every two-piece split.
func TestEncoderStreamFragments(t *testing.T) {
	all := unhex(t, b2Encoder+"4a63 7573 746f 6d2d 6b65 790c 6375 7374 6f6d 2d76 616c 7565 02 810d 6375 7374 6f6d 2d76 616c 7565 32")
	want := func(d *Decoder) {
		t.Helper()
		if d.InsertCount() != 5 {
			t.Fatalf("%d inserts, want 5", d.InsertCount())
		}
		if got := tableOf(d); got != appendixB[4].table {
			t.Fatalf("table:\n%s", got)
		}
	}
	d := NewDecoder(220, 0)
	for i := range all {
		if err := d.WriteEncoderStream(all[i : i+1]); err != nil {
			t.Fatal(err)
		}
	}
	want(d)
	for cut := range all {
		d := NewDecoder(220, 0)
		if err := d.WriteEncoderStream(all[:cut]); err != nil {
			t.Fatal(err)
		}
		if err := d.WriteEncoderStream(all[cut:]); err != nil {
			t.Fatal(err)
		}
		want(d)
	}
}
