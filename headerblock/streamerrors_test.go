package headerblock_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/metapack/metapack/headerblock"
	"github.com/metapack/metapack/mdelem"
	"golang.org/x/net/http2"
	xhpack "golang.org/x/net/http2/hpack"
)

// TestStreamErrors checks SetStreamErrors: a block that x/net's Framer
// would end the connection over (more of it after its list went over the
// limit or after an invalid field, a fragment over twice what is left of
// the list) is read to its end and reported as a stream error, and the
// next block, which refers to the entries the first one added, decodes as
// x/net's decoder decodes it: the dynamic table stayed in step.
func TestStreamErrors(t *testing.T) {
	v60, w60 := strings.Repeat("v", 60), strings.Repeat("w", 60)
	tests := []struct {
		name    string
		maxList uint32
		frags   [][]byte // the first block, a frame each
		next    []byte   // the second block
		code    http2.ErrCode
		cause   error
	}{
		{"over-list-then-continuation", 120, [][]byte{litIdx("a", v60), litIdx("b", w60), {0x82}}, []byte{0xbf}, http2.ErrCodeEnhanceYourCalm, headerblock.ErrListTooLarge},
		{"invalid-then-continuation", 0, [][]byte{litIdx("A", "x"), litIdx("b", "y"), nil}, []byte{0xbe}, http2.ErrCodeProtocol, headerblock.ErrInvalidName},
		{"invalid-value-then-continuation", 0, [][]byte{litIdx("a", "x\ny"), litIdx("b", "y")}, []byte{0xbe}, http2.ErrCodeProtocol, headerblock.ErrInvalidValue},
		{"fragment-over-twice-the-list", 100, [][]byte{cat(litIdx("c", "d"), lit("x", strings.Repeat("z", 300)))}, []byte{0xbe}, http2.ErrCodeEnhanceYourCalm, headerblock.ErrListTooLarge},
		{"string-over-list-then-continuation", 100, [][]byte{litIdx("c", "d"), lit("x", strings.Repeat("z", 150)), {0x84}}, []byte{0xbe}, http2.ErrCodeEnhanceYourCalm, headerblock.ErrListTooLarge},
	}
	for _, tt := range tests {
		// What x/net's decoder makes of the second block after the first.
		xdec := xhpack.NewDecoder(4096, nil)
		if _, err := xdec.DecodeFull(bytes.Join(tt.frags, nil)); err != nil {
			t.Fatalf("%s: x/net's decoder rejects the first block: %v", tt.name, err)
		}
		want, err := xdec.DecodeFull(tt.next)
		if err != nil {
			t.Fatalf("%s: x/net's decoder rejects the second block: %v", tt.name, err)
		}
		wire := newConnWriter().headers(1, true, tt.frags...).ping().headers(3, true, tt.next).bytes()
		for _, form := range []string{"batch", "meta"} {
			t.Run(tt.name+"/"+form, func(t *testing.T) {
				fr := http2.NewFramer(nil, bytes.NewReader(wire))
				fr.MaxHeaderListSize = tt.maxList
				r := headerblock.NewReader(nil)
				r.SetStreamErrors(true)
				read := func() ([]xhpack.HeaderField, error) {
					f, err := fr.ReadFrame()
					if err != nil {
						t.Fatalf("ReadFrame: %v", err)
					}
					hf, ok := f.(*http2.HeadersFrame)
					if !ok {
						t.Fatalf("ReadFrame: %T, want a HEADERS frame", f)
					}
					if form == "meta" {
						mh, err := r.ReadMeta(fr, hf)
						if mh == nil {
							return nil, err
						}
						return mh.Fields, err
					}
					b := mdelem.NewBatch(0, 0)
					_, err = r.ReadBatch(b, fr, hf)
					var out []xhpack.HeaderField
					for _, f := range b.All() {
						out = append(out, xhpack.HeaderField{Name: f.Name.String(), Value: f.Value.String(), Sensitive: f.Sensitive()})
					}
					return out, err
				}
				_, err := read()
				var se http2.StreamError
				if !errors.As(err, &se) || se.StreamID != 1 || se.Code != tt.code || !errors.Is(se.Cause, tt.cause) {
					t.Fatalf("first block: %v, want a StreamError on stream 1 with %v and %v", err, tt.code, tt.cause)
				}
				if f, err := fr.ReadFrame(); err != nil {
					t.Fatalf("the frame after the block: %v", err)
				} else if _, ok := f.(*http2.PingFrame); !ok {
					t.Fatalf("the frame after the block: %T, want the PING", f)
				}
				got, err := read()
				if err != nil {
					t.Fatalf("second block: %v", err)
				}
				if len(got) != len(want) || (len(got) > 0 && got[0] != want[0]) {
					t.Errorf("second block: %v, want %v", got, want)
				}
			})
		}
	}
}

// TestErrorDetail checks that a connection error the Reader finds comes
// with a reason, and that the next read clears it.
func TestErrorDetail(t *testing.T) {
	w := newConnWriter().open(1, nil)
	for range 3 {
		w.cont(1, false, nil)
	}
	w.cont(1, true, []byte{0x82})
	fr := http2.NewFramer(nil, bytes.NewReader(w.bytes()))
	r := headerblock.NewReader(nil)
	r.SetMaxBlockFrames(2)
	f, _ := fr.ReadFrame()
	_, err := r.ReadBatch(nil, fr, f.(*http2.HeadersFrame))
	var ce http2.ConnectionError
	if !errors.As(err, &ce) || http2.ErrCode(ce) != http2.ErrCodeEnhanceYourCalm {
		t.Fatalf("err %v, want ConnectionError(ENHANCE_YOUR_CALM)", err)
	}
	if d := r.ErrorDetail(); d == nil || !strings.Contains(d.Error(), "2 frames") {
		t.Errorf("ErrorDetail %v, want the frame bound", d)
	}
	good := newConnWriter().headers(1, true, []byte{0x82}).bytes()
	fr = http2.NewFramer(nil, bytes.NewReader(good))
	f, _ = fr.ReadFrame()
	if _, err := r.ReadBatch(nil, fr, f.(*http2.HeadersFrame)); err != nil || r.ErrorDetail() != nil {
		t.Errorf("a good block: err %v, ErrorDetail %v; want both nil", err, r.ErrorDetail())
	}
}

// TestConnErrorOnLongString checks SetConnErrorOnLongString: a value longer than
// MaxHeaderListSize ends the connection with COMPRESSION_ERROR, as x/net's
// Framer does; off, the list is over the limit and the connection goes on.
func TestConnErrorOnLongString(t *testing.T) {
	block := cat([]byte{0x82}, lit("x", strings.Repeat("v", 200)))
	for _, tt := range []struct {
		on        bool
		truncated bool
		code      http2.ErrCode // of a ConnectionError; 0: none
	}{
		{false, true, 0},
		{true, false, http2.ErrCodeCompression},
	} {
		t.Run(fmt.Sprint("on=", tt.on), func(t *testing.T) {
			wire := newConnWriter().headers(1, true, block).bytes()
			fr := http2.NewFramer(nil, bytes.NewReader(wire))
			fr.MaxHeaderListSize = 100
			r := headerblock.NewReader(nil)
			r.SetConnErrorOnLongString(tt.on)
			f, _ := fr.ReadFrame()
			truncated, err := r.ReadBatch(nil, fr, f.(*http2.HeadersFrame))
			var ce http2.ConnectionError
			gotCode := http2.ErrCode(0)
			if errors.As(err, &ce) {
				gotCode = http2.ErrCode(ce)
			} else if err != nil {
				t.Fatalf("err %v", err)
			}
			if truncated != tt.truncated || gotCode != tt.code {
				t.Errorf("truncated %v, connection error %v; want %v, %v", truncated, gotCode, tt.truncated, tt.code)
			}
		})
	}
}

// TestDefaultBlockBounds checks that the default bounds on a block grow
// with the Framer's MaxHeaderListSize: a block of 6 MiB in 400 frames,
// within a list limit of 16 MiB, reads whole (the least bounds, 128
// frames and 4 MiB, would end the connection).
func TestDefaultBlockBounds(t *testing.T) {
	v := strings.Repeat("v", 15000)
	var frags [][]byte
	for i := range 400 {
		frags = append(frags, lit(fmt.Sprintf("x-%d", i), v))
	}
	wire := newConnWriter().headers(1, true, frags...).bytes()
	for _, tt := range []struct {
		maxList uint32
		err     bool
	}{
		{16 << 20, false},
		{0, false}, // x/net's default, 16 MiB
	} {
		t.Run(fmt.Sprint("maxList=", tt.maxList), func(t *testing.T) {
			fr := http2.NewFramer(nil, bytes.NewReader(wire))
			fr.MaxHeaderListSize = tt.maxList
			r := headerblock.NewReader(nil)
			f, _ := fr.ReadFrame()
			b := mdelem.NewBatch(0, 0)
			truncated, err := r.ReadBatch(b, fr, f.(*http2.HeadersFrame))
			if (err != nil) != tt.err || truncated || b.Len() != 400 {
				t.Errorf("err %v, truncated %v, %d fields; want 400 fields", err, truncated, b.Len())
			}
		})
	}
}
