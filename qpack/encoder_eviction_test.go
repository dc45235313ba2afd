package qpack

import (
	"testing"

	"github.com/metapack/metapack/mdelem"
)

// TestEncoderKeepsUnacknowledgedEntries: an entry whose insert the peer
// has not acknowledged is not evictable (RFC 9204 §2.1.1), even when no
// section refers to it any more: a Stream Cancellation says nothing of
// inserts received (§2.2.2.2). Found by interop/nghttp3's differential.
func TestEncoderKeepsUnacknowledgedEntries(t *testing.T) {
	for _, tc := range []struct {
		name    string
		blocked uint64
		between []byte // decoder-stream bytes after the first section
	}{
		{"cancelled", 16, []byte{0x40}},
		{"never acknowledged, no blocking", 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			enc := NewEncoder()
			enc.SetPeerSettings(64, tc.blocked) // room for one small entry
			b := mdelem.NewBatch(1, 16)
			for i, f := range [][2]string{{"x-a", "1"}, {"x-a", "1"}, {"x-b", "2"}, {"x-b", "2"}} {
				b.Reset()
				b.Append(mdelem.From(mdelem.BorrowString(f[0]), mdelem.BorrowString(f[1])))
				enc.AppendSection(nil, nil, uint64(4*i), b)
				if i == 0 && tc.between != nil {
					if err := enc.WriteDecoderStream(tc.between); err != nil {
						t.Fatal(err)
					}
				}
			}
			if _, _, ok := enc.DynamicEntry(0); !ok || enc.InsertCount() != 1 {
				t.Errorf("entry 0 present %v, %d inserts: the unacknowledged entry was evicted", ok, enc.InsertCount())
			}
		})
	}
}
