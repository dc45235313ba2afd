package qpack

import (
	"testing"

	"github.com/metapack/metapack/mdelem"
)

// TestSensitiveRoundTrip: a Sensitive field keeps its flag (the N bit)
// through every literal form: static name, dynamic name before and after
// the Base, and literal name; and is never inserted.
func TestSensitiveRoundTrip(t *testing.T) {
	enc := NewEncoder()
	enc.SetPeerSettings(4096, 16)
	dec := NewDecoder(4096, 16)
	in, out := mdelem.NewBatch(8, 256), mdelem.NewBatch(8, 256)
	for i, fields := range [][][2]string{
		{{"x-name", "v"}, {"x-name", "v"}},                             // inserts x-name
		{{"x-name", "secret"}, {":path", "/s"}, {"x-other", "secret"}}, // sensitive, pre-base and static names
		{{"x-new", "a"}, {"x-new", "secret"}},                          // post-base name: x-new inserted by this section
	} {
		in.Reset()
		for _, f := range fields {
			in.Append(mdelem.From(mdelem.BorrowString(f[0]), mdelem.BorrowString(f[1])).WithSensitive(f[1] == "secret" || f[1] == "/s"))
		}
		before := enc.InsertCount()
		sec, es := enc.AppendSection(nil, nil, uint64(4*i), in)
		if err := dec.WriteEncoderStream(es); err != nil {
			t.Fatal(err)
		}
		out.Reset()
		if err := dec.Decode(out, uint64(4*i), sec); err != nil {
			t.Fatalf("section %d (%x): %v", i, sec, err)
		}
		for j := range in.Len() {
			a, b := in.At(j), out.At(j)
			if a.Name.String() != b.Name.String() || a.Value.String() != b.Value.String() || a.Sensitive() != b.Sensitive() {
				t.Errorf("section %d field %d: %s sensitive %v, want %s sensitive %v", i, j, b, b.Sensitive(), a, a.Sensitive())
			}
		}
		for abs := before; abs < enc.InsertCount(); abs++ {
			if _, v, _ := enc.DynamicEntry(abs); v == "secret" || v == "/s" {
				t.Errorf("a sensitive value was inserted")
			}
		}
		enc.WriteDecoderStream(dec.AppendDecoderStream(nil))
	}
}
