package mdelem

import (
	"fmt"
	"testing"

	"github.com/metapack/metapack/staticdata"
)

// TestBatchTruncate checks that a batch truncated to n fields, then
// appended to, answers Len, Size, At, Get and GetString as a batch built
// with those fields alone does.
func TestBatchTruncate(t *testing.T) {
	fields := []Field{
		FromStrings(":path", "/a"),
		FromStrings("x-a", "1"),
		FromStrings(":path", "/b"), // a second field of a key: holds no slot
		FromStrings("content-type", "application/grpc"),
		From(BorrowString("x-b"), Owned([]byte("owned"))),
		FromStrings("te", "trailers"),
	}
	more := []Field{FromStrings("content-type", "text/plain"), FromStrings(":path", "/c"), FromStrings("x-a", "2")}
	keys := []staticdata.KeyID{staticdata.KeyPath, staticdata.KeyContentType, staticdata.KeyTe}
	for n := -1; n <= len(fields)+1; n++ {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			got := NewBatch(2, 8)
			for _, f := range fields {
				got.Append(f)
			}
			got.Truncate(n)
			want := NewBatch(0, 0)
			for _, f := range fields[:min(max(n, 0), len(fields))] {
				want.Append(f)
			}
			same(t, "truncated", got, want, keys)
			for _, f := range more {
				got.Append(f)
				want.Append(f)
			}
			same(t, "appended to", got, want, keys)
		})
	}
}

func same(t *testing.T, when string, got, want *Batch, keys []staticdata.KeyID) {
	t.Helper()
	if got.Len() != want.Len() || got.Size() != want.Size() {
		t.Fatalf("%s: Len %d Size %d, want %d %d", when, got.Len(), got.Size(), want.Len(), want.Size())
	}
	for i := range want.Len() {
		if g, w := got.At(i).String(), want.At(i).String(); g != w {
			t.Errorf("%s: At(%d) = %s, want %s", when, i, g, w)
		}
	}
	for _, k := range keys {
		g, gok := got.Get(k)
		w, wok := want.Get(k)
		if gok != wok || g.String() != w.String() {
			t.Errorf("%s: Get(%v) = %s %v, want %s %v", when, k, g, gok, w, wok)
		}
	}
	g, gok := got.GetString("x-a")
	w, wok := want.GetString("x-a")
	if gok != wok || g.String() != w.String() {
		t.Errorf("%s: GetString(x-a) = %s %v, want %s %v", when, g, gok, w, wok)
	}
}
