package qpack

import (
	"bytes"
	"slices"
	"testing"

	"github.com/metapack/metapack/mdelem"
	mqpack "github.com/metapack/metapack/qpack"
)

// FuzzDecode decodes arbitrary sections with the drop-in and with
// metapack's qpack Decoder directly: both must agree on the fields, and
// on whether the section is bad, but for the Delta Base the drop-in
// refuses as quic-go/qpack does. What decodes must encode and decode back
// to the same fields.
func FuzzDecode(f *testing.F) {
	for _, seed := range [][]byte{
		{0, 0, 0xd1, 0xd9},
		{0, 0, 0x51, 0x0b, '/', 'i', 'n', 'd', 'e', 'x', '.', 'h', 't', 'm', 'l'},
		{0, 0, 0x23, 'f', 'o', 'o', 0x03, 'b', 'a', 'r'},
		{0, 0, 0x2a, 0x94, 0xe7, 0x83, 0x94, 0xe7, 0x0f},
		{0, 1}, {1, 0}, {0, 0, 0x10}, {0, 0, 0x80}, {0, 0, 0xff, 0x24},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		got, err := decodeAll(NewDecoder().Decode(p))
		ref := mdelem.NewBatch(8, 256)
		dec := mqpack.NewDecoder(0, 0)
		dec.SetMaxFields(-1)
		dec.SetMaxFieldSectionSize(-1)
		dec.SetMaxStringLength(-1)
		refErr := dec.Decode(ref, 0, p)
		if (refErr != nil) != (err != nil) && !(err == errBase && refErr == nil) {
			t.Fatalf("drop-in error %v, qpack error %v", err, refErr)
		}
		if err == errBase {
			return
		}
		if len(got) != ref.Len() {
			t.Fatalf("drop-in gave %d fields, qpack %d", len(got), ref.Len())
		}
		for i, f := range ref.All() {
			if got[i].Name != string(f.Name.UnsafeBytes()) || got[i].Value != string(f.Value.UnsafeBytes()) {
				t.Fatalf("field %d: drop-in %q, qpack %q: %q", i, got[i], f.Name.String(), f.Value.String())
			}
		}
		if err != nil {
			return
		}
		var buf bytes.Buffer
		enc := NewEncoder(&buf)
		for _, f := range got {
			if err := enc.WriteField(f); err != nil {
				t.Fatal(err)
			}
		}
		enc.Close()
		if len(got) == 0 {
			return
		}
		back, err := decodeAll(NewDecoder().Decode(buf.Bytes()))
		if err != nil || !slices.Equal(back, got) {
			t.Fatalf("re-encoded % x decodes to %q, %v; want %q", buf.Bytes(), back, err, got)
		}
	})
}
