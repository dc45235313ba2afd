package qif

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseRecords(t *testing.T) {
	tests := []struct {
		name    string
		in      []byte
		want    []Record
		wantErr string
	}{
		{"empty", nil, nil, ""},
		{"one", []byte("\x00\x00\x00\x00\x00\x00\x00\x04\x00\x00\x00\x02\x00\x00"), []Record{{4, []byte{0, 0}}}, ""},
		{"empty record", []byte("\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"), []Record{{0, []byte{}}}, ""},
		{"big-endian stream ID", []byte("\x01\x02\x03\x04\x05\x06\x07\x08\x00\x00\x00\x01\xab"), []Record{{0x0102030405060708, []byte{0xab}}}, ""},
		{"two", []byte("\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x3f\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00"), []Record{{0, []byte{0x3f}}, {1, []byte{}}}, ""},
		{"header cut short", []byte("\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00"), nil, "offset 0: record header cut short: 11 of 12 bytes"},
		{"payload cut short", []byte("\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x05\x00"), nil, "offset 13: stream 2's record says 5 bytes, 1 follow"},
		{"huge length", []byte("\x00\x00\x00\x00\x00\x00\x00\x01\xff\xff\xff\xff"), nil, "says 4294967295 bytes, 0 follow"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseRecords(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			var back []byte
			for _, r := range got {
				back = AppendRecord(back, r.StreamID, r.Data)
			}
			if !bytes.Equal(back, tt.in) {
				t.Errorf("AppendRecord of the records = %x, want %x", back, tt.in)
			}
		})
	}
}

// TestParseRecordsDataIsCapped checks that appending to one record's Data
// cannot overwrite the next record.
func TestParseRecordsDataIsCapped(t *testing.T) {
	in := AppendRecord(AppendRecord(nil, 1, []byte("ab")), 2, []byte("cd"))
	recs, err := ParseRecords(in)
	if err != nil {
		t.Fatal(err)
	}
	_ = append(recs[0].Data, 'X')
	if got := string(recs[1].Data); got != "cd" {
		t.Errorf("record 2 = %q after appending to record 1, want %q", got, "cd")
	}
}

func TestWireBytes(t *testing.T) {
	tests := []struct {
		recs []Record
		want int
	}{
		{nil, 0},
		{[]Record{{0, []byte("abc")}, {1, nil}, {2, []byte("de")}}, 5},
	}
	for _, tt := range tests {
		if got := WireBytes(tt.recs); got != tt.want {
			t.Errorf("WireBytes = %d, want %d", got, tt.want)
		}
	}
}
