package hpack

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestRecycledStateIsClean drops a Decoder whose table holds an entry,
// whose string limit is low and which a bad block has failed, waits for
// its state to reach the pool, and checks that the next Decoder, which
// takes that state, starts as new: an empty table, no error, no limit.
func TestRecycledStateIsClean(t *testing.T) {
	for statePool.Get() != nil { // start from an empty pool
	}
	used := func() *decState {
		d := NewDecoder(4096, nil)
		// custom-key: custom-header, with incremental indexing.
		blk := append([]byte{0x40, 0x0a}, "custom-key\x0dcustom-header"...)
		if _, err := d.DecodeFull(blk); err != nil {
			t.Fatal(err)
		}
		d.SetMaxStringLength(3)
		if _, err := d.DecodeFull([]byte{0x80}); err == nil { // index 0
			t.Fatal("index 0 decoded")
		}
		return &decState{d: d.d}
	}()
	var got *decState
	for i := 0; i < 200 && got == nil; i++ {
		runtime.GC()
		time.Sleep(time.Millisecond)
		got, _ = statePool.Get().(*decState)
	}
	if got == nil {
		t.Fatal("a dropped Decoder's state never reached the pool")
	}
	if got.d != used.d {
		t.Fatal("the pooled state is not the dropped Decoder's")
	}
	statePool.Put(got)

	var fields []HeaderField
	d := NewDecoder(4096, func(f HeaderField) { fields = append(fields, f) })
	if d.d != used.d {
		t.Skip("NewDecoder did not take the pooled state (sync.Pool may drop items)")
	}
	// A 100-byte value, over the dropped Decoder's limit, without
	// indexing: no limit and no error carry over.
	blk := append([]byte{0x00, 0x01, 'k', 100}, strings.Repeat("v", 100)...)
	if _, err := d.DecodeFull(blk); err != nil {
		t.Fatalf("a 100-byte value on the recycled state: %v", err)
	}
	var de DecodingError
	if _, err := d.DecodeFull([]byte{0xbe}); !errors.As(err, &de) || de.Err != InvalidIndexError(62) {
		t.Fatalf("index 62 on the recycled state: %v, want an invalid index (empty table)", err)
	}
}
