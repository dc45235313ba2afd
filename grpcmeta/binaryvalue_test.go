package grpcmeta

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"testing"

	"github.com/metapack/metapack/mdelem"
)

// TestDecodeBinaryIntoBatch checks that DecodeBinary into memory the batch
// allocates (b.Alloc(f.Value.Len())[:0], as its doc says) decodes what
// DecodeBinary into a fresh buffer decodes, for values of every length mod
// 3, padded and not, and that every value decoded stays intact while the
// batch takes more fields and more values.
func TestDecodeBinaryIntoBatch(t *testing.T) {
	b := mdelem.NewBatch(4, 16) // a small arena: it must grow on the way
	var want, got [][]byte
	for n := range 40 {
		raw := bytes.Repeat([]byte{byte(n), 0xff, 0x00}, n)[:n]
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding} {
			b.Append(mdelem.From(mdelem.BorrowString(fmt.Sprintf("x-%d-bin", n)), mdelem.BorrowString(enc.EncodeToString(raw))))
			f := b.At(b.Len() - 1)
			v, err := DecodeBinary(b.Alloc(f.Value.Len())[:0], f)
			if err != nil || !bytes.Equal(v, raw) {
				t.Fatalf("length %d: %x, %v; want %x", n, v, err, raw)
			}
			if w, _ := DecodeBinary(nil, f); !bytes.Equal(v, w) {
				t.Fatalf("length %d: %x, DecodeBinary gives %x", n, v, w)
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
		f    mdelem.Field
		err  error
	}{
		{"not binary", mdelem.From(mdelem.BorrowString("x-a"), mdelem.BorrowString("AA")), ErrName},
		{"bad base64", mdelem.From(mdelem.BorrowString("x-bin"), mdelem.BorrowString("A*")), ErrValue},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := DecodeBinary(b.Alloc(tt.f.Value.Len())[:0], tt.f); !errors.Is(err, tt.err) {
				t.Errorf("err %v, want %v", err, tt.err)
			}
		})
	}
}
