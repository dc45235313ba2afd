package hpack_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	compat "github.com/metapack/metapack/compat/hpack"
	mhpack "github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// TestBatchAdapters round-trips HeaderFields through a batch, and through
// metapack's Encoder and Decoder, checking that Sensitive survives as the
// never-index flag and that static strings come back as atoms.
func TestBatchAdapters(t *testing.T) {
	in := []compat.HeaderField{
		{Name: ":method", Value: "POST"},
		{Name: ":path", Value: "/pkg.Service/Method"},
		{Name: "authorization", Value: "Bearer t", Sensitive: true},
		{Name: "x-custom", Value: ""},
		{Name: "content-type", Value: "application/grpc"},
	}
	b := mdelem.NewBatch(0, 0)
	compat.AppendToBatch(b, in)
	if b.Len() != len(in) || !b.At(2).Sensitive() || b.At(0).Sensitive() {
		t.Fatalf("batch of %d fields, sensitive %v %v", b.Len(), b.At(0).Sensitive(), b.At(2).Sensitive())
	}
	if a := b.At(0).Name.Atom(); a == nil || a != staticdata.Lookup(":method") {
		t.Errorf(":method is %v in the batch, want a static atom", a)
	}
	if diff := cmp.Diff(in, compat.AppendFromBatch(nil, b)); diff != "" {
		t.Errorf("batch round trip differs (-in +out):\n%s", diff)
	}

	block := mhpack.NewEncoder(mhpack.DefaultTableSize).AppendBlock(nil, b)
	out := mdelem.NewBatch(0, 0)
	if err := mhpack.NewDecoder(mhpack.DefaultTableSize).Decode(out, block); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(in, compat.AppendFromBatch(nil, out)); diff != "" {
		t.Errorf("codec round trip differs (-in +out):\n%s", diff)
	}

	compat.AppendToBatch(nil, in)
	if got := compat.AppendFromBatch(in[:1], nil); len(got) != 1 {
		t.Errorf("AppendFromBatch of a nil batch = %v", got)
	}
}

// TestAppendFromBatchKeeps checks that AppendFromBatch's strings outlive
// the batch, which is Reset and refilled over the same arena, and that a
// batch costs one allocation (none when every string is an atom).
func TestAppendFromBatchKeeps(t *testing.T) {
	tests := []struct {
		name   string
		fields []compat.HeaderField
		allocs float64
	}{
		{"atoms only", []compat.HeaderField{{Name: ":method", Value: "GET"}, {Name: ":path", Value: "/"}}, 0},
		{"custom", []compat.HeaderField{{Name: ":path", Value: "/a/b"}, {Name: "x-a", Value: "1"}, {Name: "x-b", Value: ""}, {Name: "cookie", Value: "k=v", Sensitive: true}}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Through the codec, whose decoder makes static strings atoms.
			fill := func(b *mdelem.Batch, fields []compat.HeaderField) {
				in := mdelem.NewBatch(0, 0)
				compat.AppendToBatch(in, fields)
				block := mhpack.NewEncoder(0).AppendBlock(nil, in)
				if err := mhpack.NewDecoder(0).Decode(b, block); err != nil {
					t.Fatal(err)
				}
			}
			b := mdelem.NewBatch(0, 0)
			fill(b, tt.fields)
			got := compat.AppendFromBatch(nil, b)
			b.Reset()
			overwrite := make([]compat.HeaderField, len(tt.fields))
			for i := range overwrite {
				overwrite[i] = compat.HeaderField{Name: "x-zzzzzzzzzzzzzzzz", Value: "zzzzzzzzzzzzzzzzzzzzzzzz"}
			}
			fill(b, overwrite)
			if diff := cmp.Diff(tt.fields, got); diff != "" {
				t.Errorf("fields changed after the batch was reused (-want +got):\n%s", diff)
			}
			b.Reset()
			fill(b, tt.fields)
			dst := make([]compat.HeaderField, 0, len(tt.fields))
			if n := testing.AllocsPerRun(100, func() { dst = compat.AppendFromBatch(dst[:0], b) }); n != tt.allocs {
				t.Errorf("%v allocations, want %v", n, tt.allocs)
			}
		})
	}
}
