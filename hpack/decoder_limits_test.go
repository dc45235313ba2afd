package hpack

import (
	"errors"
	"testing"

	"github.com/metapack/metapack/mdelem"
)

// TestLimitsChangedMidBlock checks that a limit set between two fragments
// of a block counts at once, and that a block that went over a limit
// stays over it when the limit is raised later in the block.
func TestLimitsChangedMidBlock(t *testing.T) {
	frag := []byte{0x82, 0x82, 0x82} // three times :method: GET
	batch := mdelem.NewBatch(16, 256)

	d := NewDecoder(DefaultTableSize)
	if err := d.DecodeFragment(batch, frag, false); err != nil {
		t.Fatal(err)
	}
	d.SetMaxFields(4) // 3 fields so far; one more fits
	err := d.DecodeFragment(batch, frag, true)
	var le *LimitError
	if !errors.As(err, &le) || !errors.Is(err, ErrFieldCount) || le.Offset != 4 {
		t.Fatalf("lowered mid-block: error %v, want ErrFieldCount at byte 4", err)
	}
	if batch.Len() != 4 {
		t.Fatalf("lowered mid-block: %d fields, want 4", batch.Len())
	}

	batch.Reset()
	d = NewDecoder(DefaultTableSize)
	d.SetMaxFields(2)
	if err := d.DecodeFragment(batch, frag, false); err != nil {
		t.Fatal(err)
	}
	d.SetMaxFields(100)
	err = d.DecodeFragment(batch, frag, true)
	if !errors.As(err, &le) || !errors.Is(err, ErrFieldCount) || le.Offset != 2 {
		t.Fatalf("raised after going over: error %v, want ErrFieldCount at byte 2", err)
	}
	if batch.Len() != 2 {
		t.Fatalf("raised after going over: %d fields, want 2", batch.Len())
	}

	batch.Reset()
	d = NewDecoder(DefaultTableSize)
	if err := d.DecodeFragment(batch, frag, false); err != nil {
		t.Fatal(err)
	}
	d.SetMaxHeaderListSize(3*42 + 41) // :method GET is 42 bytes in RFC 9113 terms
	err = d.DecodeFragment(batch, frag, true)
	if !errors.As(err, &le) || !errors.Is(err, ErrHeaderListSize) || le.Offset != 3 {
		t.Fatalf("list size lowered mid-block: error %v, want ErrHeaderListSize at byte 3", err)
	}
}
