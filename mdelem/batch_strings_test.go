package mdelem_test

import (
	"slices"
	"testing"

	"github.com/metapack/metapack/intern"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

func TestAppendStrings(t *testing.T) {
	tab := intern.New(intern.Limits{})
	h, ok := intern.Make(tab, "x-interned")
	if !ok {
		t.Fatal("x-interned not interned")
	}
	status := staticdata.Lookup(":status")
	if status == nil {
		t.Fatal(":status has no atom")
	}
	tests := []struct {
		name   string
		fields []mdelem.Field
		want   []string
	}{
		{"empty", nil, nil},
		{"static and borrowed", []mdelem.Field{
			mdelem.From(status, mdelem.BorrowString("200")),
			mdelem.From(mdelem.BorrowString("x-a"), mdelem.BorrowString("")),
		}, []string{":status", "200", "x-a", ""}},
		{"interned and owned", []mdelem.Field{
			mdelem.From(h, mdelem.Owned("v1")),
			mdelem.From(mdelem.Owned("x-owned"), mdelem.Owned("v2")),
		}, []string{"x-interned", "v1", "x-owned", "v2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := mdelem.NewBatch(4, 64)
			for _, f := range tt.fields {
				b.Append(f)
			}
			got := b.AppendStrings([]string{"keep"})
			// The strings outlive the batch's bytes.
			b.Reset()
			b.Append(mdelem.From(mdelem.BorrowString("zzzzzzzz"), mdelem.BorrowString("zzzzzzzz")))
			if want := append([]string{"keep"}, tt.want...); !slices.Equal(got, want) {
				t.Errorf("AppendStrings = %q, want %q", got, want)
			}
		})
	}
	if got := (*mdelem.Batch)(nil).AppendStrings(nil); got != nil {
		t.Errorf("nil batch appended %q", got)
	}
}

func TestAppendStringsAllocs(t *testing.T) {
	status := staticdata.Lookup(":status")
	b := mdelem.NewBatch(4, 64)
	b.Append(mdelem.From(status, mdelem.BorrowString("200")))
	b.Append(mdelem.From(mdelem.BorrowString("x-a"), mdelem.BorrowString("b")))
	dst := make([]string, 0, 8)
	if n := testing.AllocsPerRun(100, func() { dst = b.AppendStrings(dst[:0]) }); n != 1 {
		t.Errorf("AppendStrings: %v allocs, want 1 (the copied bytes)", n)
	}
	atoms := mdelem.NewBatch(4, 64)
	atoms.Append(mdelem.From(status, status))
	if n := testing.AllocsPerRun(100, func() { dst = atoms.AppendStrings(dst[:0]) }); n != 0 {
		t.Errorf("AppendStrings of atoms only: %v allocs, want 0", n)
	}
}
