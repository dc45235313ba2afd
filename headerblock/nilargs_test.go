package headerblock_test

import (
	"bytes"
	"testing"

	"github.com/metapack/metapack/headerblock"
	"github.com/metapack/metapack/mdelem"
	"golang.org/x/net/http2"
)

// TestNilArguments passes nil for every pointer argument of the exported
// functions: each returns an error or does nothing, and none panics.
func TestNilArguments(t *testing.T) {
	headersFrame := func() (*http2.Framer, *http2.HeadersFrame) {
		fr := http2.NewFramer(nil, bytes.NewReader(newConnWriter().headers(1, true, []byte{0x82}).bytes()))
		f, err := fr.ReadFrame()
		if err != nil {
			t.Fatal(err)
		}
		return fr, f.(*http2.HeadersFrame)
	}
	tests := []struct {
		name    string
		call    func() error
		wantErr bool
	}{
		{"ReadBatch(nil, nil, nil)", func() error { _, err := headerblock.NewReader(nil).ReadBatch(nil, nil, nil); return err }, true},
		{"ReadBatch(b, nil, hf)", func() error {
			_, hf := headersFrame()
			_, err := headerblock.NewReader(nil).ReadBatch(mdelem.NewBatch(0, 0), nil, hf)
			return err
		}, true},
		{"ReadBatch(b, fr, nil)", func() error {
			fr, _ := headersFrame()
			_, err := headerblock.NewReader(nil).ReadBatch(mdelem.NewBatch(0, 0), fr, nil)
			return err
		}, true},
		{"ReadBatch(nil, fr, hf)", func() error {
			fr, hf := headersFrame()
			_, err := headerblock.NewReader(nil).ReadBatch(nil, fr, hf)
			return err
		}, false},
		{"ReadMeta(nil, nil)", func() error { _, err := headerblock.NewReader(nil).ReadMeta(nil, nil); return err }, true},
		{"ReadMeta(fr, nil)", func() error {
			fr, _ := headersFrame()
			_, err := headerblock.NewReader(nil).ReadMeta(fr, nil)
			return err
		}, true},
		{"ReadMeta with AllowIllegalReads", func() error {
			fr, hf := headersFrame()
			fr.AllowIllegalReads = true
			_, err := headerblock.NewReader(nil).ReadMeta(fr, hf)
			return err
		}, true},
		{"WriteBlock(nil, ...)", func() error { return headerblock.WriteBlock(nil, 1, true, []byte{0x82}, 0) }, true},
		{"WriteBlock(fr, nil block)", func() error {
			return headerblock.WriteBlock(http2.NewFramer(new(bytes.Buffer), nil), 1, true, nil, 0)
		}, false},
		{"WriteBatch(nil, ..., nil)", func() error { return headerblock.NewWriter(nil).WriteBatch(nil, 1, false, nil) }, true},
		{"WriteBatch(fr, ..., nil)", func() error {
			return headerblock.NewWriter(nil).WriteBatch(http2.NewFramer(new(bytes.Buffer), nil), 1, false, nil)
		}, false},
		{"CheckListSize(nil, 1)", func() error { return headerblock.CheckListSize(nil, 1) }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.call(); (err != nil) != tt.wantErr {
				t.Errorf("error %v, want an error: %v", err, tt.wantErr)
			}
		})
	}
	// The constructors and setters take nil and any value.
	r := headerblock.NewReader(nil)
	r.SetMaxBlockFrames(-5)
	r.SetMaxBlockBytes(-5)
	if r.Decoder() == nil {
		t.Error("NewReader(nil) has no decoder")
	}
	if headerblock.NewWriter(nil).Encoder() == nil {
		t.Error("NewWriter(nil) has no encoder")
	}
}
