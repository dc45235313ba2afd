package grpcmeta

import (
	"errors"
	"math"
	"strconv"
	"testing"

	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// TestValueStatus checks Value.Status: "grpc-status" 1*DIGIT, and the
// rule that a response whose grpc-status is not a decimal integer is
// treated as UNKNOWN, with the offset the errors report.
func TestValueStatus(t *testing.T) {
	const unknown = 2
	tests := []struct {
		in   string
		want uint32
		off  int // the error's offset, or -2 for none
	}{
		{"0", 0, -2},
		{"4", 4, -2},
		{"16", 16, -2},
		{"17", 17, -2},
		{"007", 7, -2}, // 1*DIGIT allows leading zeros
		{"4294967295", math.MaxUint32, -2},
		{"4294967296", unknown, 9},
		{"99999999999999999999", unknown, 9},
		{"", unknown, -1},
		{"-1", unknown, 0},
		{"+1", unknown, 0},
		{" 1", unknown, 0},
		{"1 ", unknown, 1},
		{"0x1", unknown, 1},
		{"OK", unknown, 0},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := ValueOf(mdelem.StrOf(mdelem.BorrowString(tt.in))).Status()
			got2, ok2 := parseValue([]byte(tt.in)).Status()
			if got != got2 || ok != ok2 {
				t.Fatalf("string and bytes disagree")
			}
			if got != tt.want || ok != (tt.off == -2) {
				t.Fatalf("Status(%q) = %v, %v, want %v", tt.in, got, ok, tt.want)
			}
			_, off, reason := parseStatus(tt.in)
			if _, off2, reason2 := parseStatus([]byte(tt.in)); off2 != off || reason2 != reason {
				t.Fatalf("string and bytes disagree")
			}
			if tt.off == -2 {
				if reason != "" {
					t.Fatal(reason)
				}
				return
			}
			err := ValidateResponse(batchOf("grpc-status", tt.in), ResponseTrailers)
			var ve *FieldError
			if !errors.Is(err, ErrStatus) || !errors.As(err, &ve) || ve.Offset != tt.off || ve.Name != "grpc-status" || ve.Reason != reason {
				t.Fatalf("grpc-status %q: error %v, want ErrStatus at %d", tt.in, err, tt.off)
			}
		})
	}
}

// TestAppendStatus checks that codes are written in decimal without
// leading zeros ("without any leading zeros"), and parse back.
func TestAppendStatus(t *testing.T) {
	b := mdelem.NewBatch(4, 128)
	for _, c := range []uint32{0, 2, 16, 17, 100, math.MaxUint32} {
		b.Reset()
		if _, err := AppendStatusTrailers(b, nil, c, ""); err != nil {
			t.Fatal(err)
		}
		f, _ := b.Get(staticdata.KeyGrpcStatus)
		if got := f.Value.String(); got != strconv.FormatUint(uint64(c), 10) {
			t.Errorf("AppendStatusTrailers(%d) = %q", c, got)
		}
		if back, ok := ValueOf(f.Value).Status(); !ok || back != c {
			t.Errorf("Status(%v) = %v, %v", f.Value, back, ok)
		}
	}
}

// TestAppendStatusTrailers checks the trailers it appends: grpc-status
// as a static atom for the defined codes, grpc-message percent-encoded
// and only when there is a message, and that they validate as trailers.
func TestAppendStatusTrailers(t *testing.T) {
	tests := []struct {
		name      string
		code      uint32
		msg       string
		wantValue string
		wantMsg   string // "" for no grpc-message
	}{
		{"ok", 0, "", "0", ""},
		{"with message", 5, "no such key: é 100%", "5", "no such key: %C3%A9 100%25"},
		{"undefined code", 1234, "x", "1234", "x"},
	}
	b := mdelem.NewBatch(4, 128)
	var scratch []byte
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b.Reset()
			var err error
			if scratch, err = AppendStatusTrailers(b, scratch, tt.code, tt.msg); err != nil {
				t.Fatal(err)
			}
			f, ok := b.Get(staticdata.KeyGrpcStatus)
			if !ok || f.Value.String() != tt.wantValue {
				t.Fatalf("grpc-status %v, want %q", f, tt.wantValue)
			}
			if tt.code <= 16 && f.Value.Atom() == nil {
				t.Errorf("grpc-status %q is not an atom", tt.wantValue)
			}
			m, ok := b.Get(staticdata.KeyGrpcMessage)
			if ok != (tt.wantMsg != "") || m.Value.String() != tt.wantMsg {
				t.Fatalf("grpc-message %v, want %q", m, tt.wantMsg)
			}
			if got := DecodeMessage(nil, m.Value.UnsafeBytes()); ok && string(got) != tt.msg {
				t.Errorf("message decodes to %q", got)
			}
			if err := ValidateResponse(b, ResponseTrailers); err != nil {
				t.Errorf("ValidateResponse: %v", err)
			}
		})
	}
	if _, err := AppendStatusTrailers(nil, nil, 0, ""); !errors.Is(err, ErrArgument) {
		t.Errorf("nil batch: %v", err)
	}
}
