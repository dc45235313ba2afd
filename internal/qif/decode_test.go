package qif

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/metapack/metapack/qpack"
)

// RFC 9204 Appendix B's examples: the encoder-stream bytes and field
// sections of B.1 to B.5, for a decoder with a capacity of 220.
var (
	rfcB1Section = []byte("\x00\x00\x51\x0b/index.html")                             // stream 4
	rfcB2Encoder = []byte("\x3f\xbd\x01\xc0\x0fwww.example.com\xc1\x0c/sample/path") // capacity 220, two inserts
	rfcB2Section = []byte("\x03\x81\x10\x11")                                        // stream 8
	rfcB3Encoder = []byte("\x4acustom-key\x0ccustom-value")                          // an insert
	rfcB4Encoder = []byte("\x02")                                                    // Duplicate
	rfcB4Section = []byte("\x05\x00\x80\xc1\x81")                                    // stream 12
	rfcB5Encoder = []byte("\x81\x0dcustom-value2")                                   // an insert
	rfcB1Fields  = []Field{{Name: ":path", Value: "/index.html"}}                    //
	rfcB2Fields  = []Field{{Name: ":authority", Value: "www.example.com"}, {Name: ":path", Value: "/sample/path"}}
	rfcB4Fields  = []Field{{Name: ":authority", Value: "www.example.com"}, {Name: ":path", Value: "/"}, {Name: "custom-key", Value: "custom-value"}}
)

func TestDecode(t *testing.T) {
	appendixB := []Record{{4, rfcB1Section}, {0, rfcB2Encoder}, {8, rfcB2Section}, {0, rfcB3Encoder}, {0, rfcB4Encoder}, {12, rfcB4Section}, {0, rfcB5Encoder}}
	tests := []struct {
		name     string
		recs     []Record
		cfg      Config
		want     map[uint64][]Field
		wantCode qpack.ErrorCode // for a *qpack.Error
		wantErr  string          // part of the error's text
	}{
		{"nothing", nil, Config{}, map[uint64][]Field{}, 0, ""},
		{"static only", []Record{{4, rfcB1Section}}, Config{}, map[uint64][]Field{4: rfcB1Fields}, 0, ""},
		{"RFC 9204 Appendix B", appendixB, Config{Capacity: 220}, map[uint64][]Field{4: rfcB1Fields, 8: rfcB2Fields, 12: rfcB4Fields}, 0, ""},
		{"a section before its inserts waits", []Record{{8, rfcB2Section}, {0, rfcB2Encoder}}, Config{Capacity: 220, Blocked: 1},
			map[uint64][]Field{8: rfcB2Fields}, 0, ""},
		{"two wait for one record", []Record{{0, rfcB2Encoder}, {0, rfcB3Encoder}, {12, rfcB4Section}, {8, []byte("\x05\x00\x80\x82")}, {0, rfcB4Encoder}},
			Config{Capacity: 220, Blocked: 2}, map[uint64][]Field{8: rfcB2Fields, 12: rfcB4Fields}, 0, ""},
		{"more blocked than advertised", []Record{{8, rfcB2Section}, {0, rfcB2Encoder}}, Config{Capacity: 220},
			nil, qpack.ErrCodeDecompressionFailed, "record 1 (stream 8): "},
		{"still blocked at the end", []Record{{8, rfcB2Section}}, Config{Capacity: 220, Blocked: 1},
			nil, 0, "1 section(s) still blocked at the end of the input, on streams [8]"},
		{"two sections on a stream", []Record{{4, rfcB1Section}, {4, rfcB1Section}}, Config{},
			nil, 0, "record 2: stream 4 has a second section"},
		{"a second section on a blocked stream", []Record{{8, rfcB2Section}, {8, rfcB2Section}}, Config{Capacity: 220, Blocked: 1},
			nil, 0, "record 2: stream 8 has a second section"},
		{"capacity over ours", []Record{{0, rfcB2Encoder}}, Config{Capacity: 219},
			nil, qpack.ErrCodeEncoderStream, "record 1 (encoder stream): "},
		{"a bad section", []Record{{1, []byte{0x00, 0x81}}}, Config{Capacity: 220},
			nil, qpack.ErrCodeDecompressionFailed, "record 1 (stream 1): "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Decode(tt.recs, tt.cfg)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("(-want +got):\n%s", diff)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
			}
			var qe *qpack.Error
			if tt.wantCode != 0 && (!errors.As(err, &qe) || qe.Code != tt.wantCode) {
				t.Errorf("error %v, want a *qpack.Error with code %#x", err, tt.wantCode)
			}
		})
	}
}

func TestInOrder(t *testing.T) {
	got := InOrder(map[uint64][]Field{12: {{Name: "c"}}, 4: {{Name: "a"}}, 8: {{Name: "b"}}})
	want := [][]Field{{{Name: "a"}}, {{Name: "b"}}, {{Name: "c"}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestAppendSetCapacity(t *testing.T) {
	tests := []struct {
		capacity uint64
		want     string
	}{
		{0, "\x20"},
		{30, "\x3e"},
		{31, "\x3f\x00"},
		{220, "\x3f\xbd\x01"}, // RFC 9204 Appendix B.2
		{4096, "\x3f\xe1\x1f"},
		{1<<64 - 1, "\x3f\xe0\xff\xff\xff\xff\xff\xff\xff\xff\x01"},
	}
	for _, tt := range tests {
		if got := string(AppendSetCapacity(nil, tt.capacity)); got != tt.want {
			t.Errorf("AppendSetCapacity(%d) = %x, want %x", tt.capacity, got, tt.want)
		}
		if got := SetCapacityLen(tt.capacity); got != len(tt.want) {
			t.Errorf("SetCapacityLen(%d) = %d, want %d", tt.capacity, got, len(tt.want))
		}
	}
}
