package qpack

import (
	"bytes"
	"strings"
	"testing"

	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// TestAppendField checks that fields appended one at a time after a zero
// prefix make the section AppendSection makes with no table, for atoms,
// borrowed names and values, sensitive fields and credentials, and that
// a field with an invalid side appends nothing.
func TestAppendField(t *testing.T) {
	tests := []struct {
		name   string
		fields []mdelem.Field
	}{
		{"static entries", []mdelem.Field{
			mdelem.From(staticdata.KeyMethod.Atom(), mdelem.BorrowString("GET")),
			mdelem.From(staticdata.KeyPath.Atom(), mdelem.BorrowString("/")),
		}},
		{"static names, other values", []mdelem.Field{
			mdelem.From(staticdata.KeyPath.Atom(), mdelem.BorrowString("/index.html")),
			mdelem.From(mdelem.BorrowString("content-type"), mdelem.BorrowString("text/x-made-up")),
			mdelem.From(mdelem.BorrowString(":method"), mdelem.BorrowString("GET")),
			mdelem.From(staticdata.KeyStatus.Atom(), mdelem.BorrowString("666")),
		}},
		{"literal names", []mdelem.Field{
			mdelem.From(mdelem.BorrowString("x-request-id"), mdelem.BorrowString("0f3b6c1e")),
			mdelem.From(mdelem.BorrowString("x-long"), mdelem.BorrowString(strings.Repeat("v", 2000))),
		}},
		{"sensitive and credentials", []mdelem.Field{
			mdelem.From(mdelem.BorrowString("authorization"), mdelem.BorrowString("Basic x")).WithSensitive(true),
			mdelem.From(mdelem.BorrowString("x-secret"), mdelem.BorrowString("s3cr3t")).WithSensitive(true),
			mdelem.From(staticdata.KeyAuthorization.Atom(), mdelem.BorrowString("Bearer abc")),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := mdelem.NewBatch(len(tt.fields), 0)
			for _, f := range tt.fields {
				b.Append(f)
			}
			want, _ := NewEncoder().AppendSection(nil, nil, 0, b)
			enc := NewEncoder()
			got := []byte{0, 0}
			for _, f := range tt.fields {
				got = enc.AppendField(got, f)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("one at a time % x, AppendSection % x", got, want)
			}
		})
	}
	if got := NewEncoder().AppendField([]byte{0, 0}, mdelem.Field{}); len(got) != 2 {
		t.Errorf("an invalid field appended % x", got[2:])
	}
}
