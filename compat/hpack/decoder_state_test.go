package hpack

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"
)

// dirty makes d's table hold an entry, its string limit low, and fails it
// with a bad block.
func dirty(t *testing.T, d *Decoder) *Decoder {
	// custom-key: custom-header, with incremental indexing.
	blk := append([]byte{0x40, 0x0a}, "custom-key\x0dcustom-header"...)
	if _, err := d.DecodeFull(blk); err != nil {
		t.Fatal(err)
	}
	d.SetMaxStringLength(3)
	if _, err := d.DecodeFull([]byte{0x80}); err == nil { // index 0
		t.Fatal("index 0 decoded")
	}
	return d
}

// TestRecycledStateIsClean takes a dirty Decoder's state through the
// steps a pooled state goes through and checks that the Decoder built on
// it starts as new: an empty table, no error, no limit.
func TestRecycledStateIsClean(t *testing.T) {
	// Decoders made without recycle, so that no cleanup pools s.
	s := dirty(t, newDecoder(newDecState(4096), 4096, nil)).decState
	s.reuse(4096)
	d := newDecoder(s, 4096, nil)
	// A 100-byte value, over the dirty Decoder's limit, without
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

// TestDroppedDecoderIsPooled checks that a Decoder's state is released to
// the pool once the Decoder is garbage.
func TestDroppedDecoderIsPooled(t *testing.T) {
	released := make(chan *decState, 16)
	defer func(r func(*decState)) { release = r }(release)
	release = func(s *decState) { released <- s }
	dropped := dirty(t, NewDecoder(4096, nil)).decState
	for i := 0; i < 200; i++ {
		runtime.GC()
		select {
		case s := <-released:
			if s == dropped {
				return
			}
		case <-time.After(time.Millisecond):
		}
	}
	t.Fatal("the dropped Decoder's state was never released")
}
