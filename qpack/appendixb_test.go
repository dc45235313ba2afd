package qpack

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/metapack/metapack/mdelem"
)

// unhex decodes the RFC's hex dumps, spaces allowed.
func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fieldsOf renders a batch as "name: value" lines.
func fieldsOf(b *mdelem.Batch) string {
	var s strings.Builder
	for _, f := range b.All() {
		s.WriteString(f.Name.String() + ": " + f.Value.String() + "\n")
	}
	return s.String()
}

// tableOf renders the decoder's live entries as "abs name value" lines.
func tableOf(d *Decoder) string {
	var s strings.Builder
	for abs := uint64(0); abs < d.InsertCount(); abs++ {
		if n, v, ok := d.DynamicEntry(abs); ok {
			s.WriteString(strings.Join([]string{string(rune('0' + abs)), n, v}, " ") + "\n")
		}
	}
	return s.String()
}

// appendixB is RFC 9204 Appendix B, step by step: encoder-stream bytes, a
// section (with its stream), the decoder-stream bytes that follow, and the
// table and its size after the step.
var appendixB = []struct {
	name, encoder string
	stream        uint64
	section       string
	fields        string
	decoder       string
	table         string
	size, inserts uint64
}{
	{
		name:    "B.1 literal field line with name reference",
		stream:  4,
		section: "0000 510b 2f69 6e64 6578 2e68 746d 6c",
		fields:  ":path: /index.html\n",
	},
	{
		name:    "B.2 dynamic table",
		encoder: "3fbd01 c00f 7777 772e 6578 616d 706c 652e 636f 6d c10c 2f73 616d 706c 652f 7061 7468",
		stream:  4,
		section: "0381 10 11",
		fields:  ":authority: www.example.com\n:path: /sample/path\n",
		decoder: "84",
		table:   "0 :authority www.example.com\n1 :path /sample/path\n",
		size:    106, inserts: 2,
	},
	{
		name:    "B.3 speculative insert",
		encoder: "4a63 7573 746f 6d2d 6b65 790c 6375 7374 6f6d 2d76 616c 7565",
		decoder: "01",
		table:   "0 :authority www.example.com\n1 :path /sample/path\n2 custom-key custom-value\n",
		size:    160, inserts: 3,
	},
	{
		// The RFC's decoder cancels stream 8 (48); ours decodes the
		// section and acknowledges it (88). Cancellation is checked below.
		name:    "B.4 duplicate instruction",
		encoder: "02",
		stream:  8,
		section: "0500 80 c1 81",
		fields:  ":authority: www.example.com\n:path: /\ncustom-key: custom-value\n",
		decoder: "88",
		table:   "0 :authority www.example.com\n1 :path /sample/path\n2 custom-key custom-value\n3 :authority www.example.com\n",
		size:    217, inserts: 4,
	},
	{
		name:    "B.5 dynamic table insert, eviction",
		encoder: "810d 6375 7374 6f6d 2d76 616c 7565 32",
		decoder: "01",
		table:   "1 :path /sample/path\n2 custom-key custom-value\n3 :authority www.example.com\n4 custom-key custom-value2\n",
		size:    215, inserts: 5,
	},
}

// TestAppendixBDecoder decodes every example of RFC 9204 Appendix B and
// checks the fields, the decoder's instructions and the table after each.
func TestAppendixBDecoder(t *testing.T) {
	d := NewDecoder(220, 100)
	b := mdelem.NewBatch(8, 256)
	for _, step := range appendixB {
		t.Run(step.name, func(t *testing.T) {
			if step.encoder != "" {
				if err := d.WriteEncoderStream(unhex(t, step.encoder)); err != nil {
					t.Fatalf("encoder stream: %v", err)
				}
			}
			if step.section != "" {
				b.Reset()
				if err := d.Decode(b, step.stream, unhex(t, step.section)); err != nil {
					t.Fatalf("section: %v", err)
				}
				if got := fieldsOf(b); got != step.fields {
					t.Errorf("fields:\n%s\nwant:\n%s", got, step.fields)
				}
			}
			if got := hex.EncodeToString(d.AppendDecoderStream(nil)); got != strings.ReplaceAll(step.decoder, " ", "") {
				t.Errorf("decoder stream %q, want %q", got, step.decoder)
			}
			if got := tableOf(d); got != step.table {
				t.Errorf("table:\n%s\nwant:\n%s", got, step.table)
			}
			if size, _ := d.TableSize(); size != step.size || d.InsertCount() != step.inserts {
				t.Errorf("size %d, inserts %d; want %d, %d", size, d.InsertCount(), step.size, step.inserts)
			}
		})
	}
}

// TestAppendixBCancellation replays B.4 as the RFC has it: stream 8's
// section arrives before the Duplicate, is blocked, and is cancelled,
// which sends the RFC's Stream Cancellation (48) and frees the slot.
func TestAppendixBCancellation(t *testing.T) {
	d := NewDecoder(220, 1)
	for _, step := range appendixB[:3] {
		if step.encoder != "" {
			if err := d.WriteEncoderStream(unhex(t, step.encoder)); err != nil {
				t.Fatal(err)
			}
		}
		if step.section != "" {
			if err := d.Decode(nil, step.stream, unhex(t, step.section)); err != nil {
				t.Fatal(err)
			}
		}
	}
	d.AppendDecoderStream(nil)
	if err := d.Decode(nil, 8, unhex(t, "0500 80 c1 81")); err != ErrBlocked {
		t.Fatalf("stream 8 before the Duplicate: %v, want ErrBlocked", err)
	}
	if err := d.Decode(nil, 12, unhex(t, "0500 80")); err == nil || IsStreamError(err) {
		t.Fatalf("a second blocked stream with 1 allowed: %v, want QPACK_DECOMPRESSION_FAILED", err)
	}
	d = NewDecoder(220, 1) // that error ended the connection; replay
	for _, step := range appendixB[:3] {
		if step.encoder != "" {
			d.WriteEncoderStream(unhex(t, step.encoder))
		}
		if step.section != "" {
			d.Decode(nil, step.stream, unhex(t, step.section))
		}
	}
	d.AppendDecoderStream(nil)
	if err := d.Decode(nil, 8, unhex(t, "0500 80 c1 81")); err != ErrBlocked {
		t.Fatalf("stream 8: %v, want ErrBlocked", err)
	}
	d.CancelStream(8)
	if got := hex.EncodeToString(d.AppendDecoderStream(nil)); got != "48" {
		t.Errorf("after CancelStream(8): decoder stream %q, want 48", got)
	}
	if err := d.Decode(nil, 12, unhex(t, "0500 80")); err != ErrBlocked {
		t.Errorf("the cancelled stream's slot was not freed: %v", err)
	}
	if err := d.WriteEncoderStream(unhex(t, "02")); err != nil {
		t.Fatal(err)
	}
	if got := d.AppendUnblocked(nil); len(got) != 1 || got[0] != 12 {
		t.Errorf("unblocked %v, want [12] (not the cancelled 8)", got)
	}
}

// TestAppendixBEncoder runs the examples the other way: our Encoder
// encodes each example's fields at capacity 220 and takes the RFC's
// decoder instructions; the peer's decoder (ours) must decode what it
// sends, and the Encoder must count what the instructions acknowledge.
func TestAppendixBEncoder(t *testing.T) {
	enc := NewEncoder()
	enc.SetPeerSettings(220, 100)
	dec := NewDecoder(220, 100)
	in, out := mdelem.NewBatch(8, 256), mdelem.NewBatch(8, 256)
	for _, step := range appendixB {
		if step.section == "" {
			continue
		}
		t.Run(step.name, func(t *testing.T) {
			in.Reset()
			for _, l := range strings.Split(strings.TrimSuffix(step.fields, "\n"), "\n") {
				n, v, _ := strings.Cut(l[1:], ": ")
				in.Append(mdelem.From(mdelem.BorrowString(l[:1]+n), mdelem.BorrowString(v)))
			}
			sec, es := enc.AppendSection(nil, nil, step.stream, in)
			if err := dec.WriteEncoderStream(es); err != nil {
				t.Fatalf("encoder stream %x: %v", es, err)
			}
			out.Reset()
			if err := dec.Decode(out, step.stream, sec); err != nil {
				t.Fatalf("section %x: %v", sec, err)
			}
			if got := fieldsOf(out); got != step.fields {
				t.Errorf("fields:\n%s\nwant:\n%s", got, step.fields)
			}
			ds := dec.AppendDecoderStream(nil)
			if err := enc.WriteDecoderStream(ds); err != nil {
				t.Fatalf("decoder stream %x: %v", ds, err)
			}
			if enc.known != enc.InsertCount() {
				t.Errorf("known received count %d after the acknowledgments, want %d", enc.known, enc.InsertCount())
			}
			for abs := uint64(0); abs < enc.InsertCount(); abs++ {
				n1, v1, ok1 := enc.DynamicEntry(abs)
				n2, v2, ok2 := dec.DynamicEntry(abs)
				if n1 != n2 || v1 != v2 || ok1 != ok2 {
					t.Errorf("entry %d: encoder %q %q %v, decoder %q %q %v", abs, n1, v1, ok1, n2, v2, ok2)
				}
			}
		})
	}
	// The RFC's decoder instructions themselves: a Section Acknowledgment
	// of a stream with nothing outstanding is an error (§4.4.1).
	if err := enc.WriteDecoderStream(unhex(t, "84")); !isCode(err, ErrCodeDecoderStream) {
		t.Errorf("ack of stream 4 with nothing outstanding: %v, want QPACK_DECODER_STREAM_ERROR", err)
	}
	_ = bytes.Equal
}

// isCode reports whether err is an *Error with the code.
func isCode(err error, code ErrorCode) bool {
	e, ok := err.(*Error)
	return ok && e.Code == code
}
