package headerblock_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/metapack/metapack/headerblock"
	"golang.org/x/net/http2"
)

// TestZeroReaderBounds checks that a zero Reader bounds a CONTINUATION
// flood as NewReader's does: a block of one frame more than the default
// allows, for the Framer's default MaxHeaderListSize, ends the connection
// with ENHANCE_YOUR_CALM, and one at the bound reads.
func TestZeroReaderBounds(t *testing.T) {
	maxList := 16 << 20 // x/net's Framer's, for a MaxHeaderListSize of 0
	dflt := max(headerblock.DefaultMaxBlockBytes, 2*maxList)
	bound := max(headerblock.DefaultMaxBlockFrames, dflt/(16<<10))
	flood := func(frames int) []byte {
		w := newConnWriter().open(1, nil)
		for range frames - 2 {
			w.cont(1, false, nil)
		}
		return w.cont(1, true, []byte{0x82}).bytes()
	}
	readers := []struct {
		name string
		r    func() *headerblock.Reader
	}{
		{"zero", func() *headerblock.Reader { return new(headerblock.Reader) }},
		{"NewReader", func() *headerblock.Reader { return headerblock.NewReader(nil) }},
		{"zero after SetMaxBlockFrames(0)", func() *headerblock.Reader {
			r := new(headerblock.Reader)
			r.SetMaxBlockFrames(0)
			return r
		}},
	}
	for _, rd := range readers {
		for _, tt := range []struct {
			frames int
			calm   bool
		}{{bound, false}, {bound + 1, true}} {
			t.Run(rd.name, func(t *testing.T) {
				fr := http2.NewFramer(nil, bytes.NewReader(flood(tt.frames)))
				f, err := fr.ReadFrame()
				if err != nil {
					t.Fatal(err)
				}
				_, err = rd.r().ReadBatch(nil, fr, f.(*http2.HeadersFrame))
				var ce http2.ConnectionError
				if got := errors.As(err, &ce) && http2.ErrCode(ce) == http2.ErrCodeEnhanceYourCalm; got != tt.calm {
					t.Errorf("%d frames: err %v, want ENHANCE_YOUR_CALM: %v", tt.frames, err, tt.calm)
				}
			})
		}
	}
	// A negative bound is none of the Reader's own.
	r := new(headerblock.Reader)
	r.SetMaxBlockFrames(-1)
	fr := http2.NewFramer(nil, bytes.NewReader(flood(bound+1)))
	f, _ := fr.ReadFrame()
	if _, err := r.ReadBatch(nil, fr, f.(*http2.HeadersFrame)); err != nil {
		t.Errorf("SetMaxBlockFrames(-1): %v, want no bound", err)
	}
}
