package qpack

import (
	"bytes"
	"io"
	"testing"
)

var sink DecodeFunc

// TestAllocs checks the costs the package doc gives: an Encoder allocates
// nothing once its writer has room, and decoding a section allocates its
// DecodeFunc (two objects, when it escapes as in quic-go's http3) and one
// string for the names and values that are not atoms.
func TestAllocs(t *testing.T) {
	if testing.CoverMode() != "" || raceEnabled {
		t.Skip("allocation counts are off under -cover and -race")
	}
	if pureGo {
		t.Skip("under purego, mdelem.BorrowString copies the bytes it borrows")
	}
	fields := []HeaderField{{":method", "GET"}, {":path", "/index.html"}, {"user-agent", "metapack-test/1.0"}, {"x-custom", "value"}}
	var buf bytes.Buffer
	buf.Grow(4096)
	enc := NewEncoder(&buf)
	encode := func() {
		buf.Reset()
		for _, f := range fields {
			if err := enc.WriteField(f); err != nil {
				t.Fatal(err)
			}
		}
		enc.Close()
	}
	if n := testing.AllocsPerRun(100, encode); n != 0 {
		t.Errorf("encoding a section: %v allocations, want 0", n)
	}
	encode()
	section := bytes.Clone(buf.Bytes())
	dec := NewDecoder()
	decode := func() {
		sink = dec.Decode(section)
		for {
			if _, err := sink(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatal(err)
			}
		}
	}
	if n := testing.AllocsPerRun(100, decode); n > 3 {
		t.Errorf("decoding a section: %v allocations, want at most 3", n)
	}
}
