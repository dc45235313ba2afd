package grpcmeta

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"testing"

	"github.com/metapack/metapack/mdelem"
)

// TestBinaryValue checks that BinaryValue decodes into the batch's own
// memory what AppendBinaryValue decodes, for values of every length mod
// 3, padded and not, and that every value decoded stays intact while the
// batch takes more fields and more values.
func TestBinaryValue(t *testing.T) {
	b := mdelem.NewBatch(4, 16) // a small arena: it must grow on the way
	var want, got [][]byte
	for n := range 40 {
		raw := bytes.Repeat([]byte{byte(n), 0xff, 0x00}, n)[:n]
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding} {
			b.Append(mdelem.From(mdelem.BorrowString(fmt.Sprintf("x-%d-bin", n)), mdelem.BorrowString(enc.EncodeToString(raw))))
			f := b.At(b.Len() - 1)
			v, err := BinaryValue(b, f)
			if err != nil || !bytes.Equal(v, raw) {
				t.Fatalf("length %d: %x, %v; want %x", n, v, err, raw)
			}
			if w, _ := AppendBinaryValue(nil, f); !bytes.Equal(v, w) {
				t.Fatalf("length %d: %x, AppendBinaryValue gives %x", n, v, w)
			}
			want, got = append(want, raw), append(got, v)
		}
	}
	for i := range got {
		if !bytes.Equal(got[i], want[i]) {
			t.Errorf("value %d changed: %x, want %x", i, got[i], want[i])
		}
	}
	for _, tt := range []struct {
		name string
		b    *mdelem.Batch
		f    mdelem.Field
		err  error
	}{
		{"nil batch", nil, mdelem.From(mdelem.BorrowString("x-bin"), mdelem.BorrowString("AA")), ErrNilBatch},
		{"not binary", b, mdelem.From(mdelem.BorrowString("x-a"), mdelem.BorrowString("AA")), ErrNotBinary},
		{"bad base64", b, mdelem.From(mdelem.BorrowString("x-bin"), mdelem.BorrowString("A*")), ErrBadBase64},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := BinaryValue(tt.b, tt.f); !errors.Is(err, tt.err) {
				t.Errorf("err %v, want %v", err, tt.err)
			}
		})
	}
}
