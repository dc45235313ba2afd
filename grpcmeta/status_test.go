package grpcmeta

import (
	"errors"
	"math"
	"strconv"
	"testing"

	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// TestParseStatus checks Status: "grpc-status" 1*DIGIT, and the rule
// that a response whose grpc-status is not a decimal integer is treated
// as UNKNOWN.
func TestParseStatus(t *testing.T) {
	tests := []struct {
		in   string
		want Code
		off  int // the error's offset, or -2 for none
	}{
		{"0", OK, -2},
		{"4", DeadlineExceeded, -2},
		{"16", Unauthenticated, -2},
		{"17", 17, -2},
		{"007", 7, -2}, // 1*DIGIT allows leading zeros
		{"4294967295", math.MaxUint32, -2},
		{"4294967296", Unknown, 9},
		{"99999999999999999999", Unknown, 9},
		{"", Unknown, -1},
		{"-1", Unknown, 0},
		{"+1", Unknown, 0},
		{" 1", Unknown, 0},
		{"1 ", Unknown, 1},
		{"0x1", Unknown, 1},
		{"OK", Unknown, 0},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseStatus(tt.in)
			got2, err2 := ParseStatus([]byte(tt.in))
			if got != got2 || (err == nil) != (err2 == nil) {
				t.Fatalf("string and bytes disagree")
			}
			if got != tt.want {
				t.Fatalf("ParseStatus(%q) = %v, want %v", tt.in, got, tt.want)
			}
			if tt.off == -2 {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var ve *ValueError
			if !errors.Is(err, ErrBadStatus) || !errors.As(err, &ve) || ve.Offset != tt.off || ve.Name != "grpc-status" {
				t.Fatalf("ParseStatus(%q) error %v, want ErrBadStatus at %d", tt.in, err, tt.off)
			}
		})
	}
}

// TestAppendStatus checks that codes are written in decimal without
// leading zeros ("without any leading zeros"), and parse back.
func TestAppendStatus(t *testing.T) {
	for _, c := range []Code{OK, Unknown, Unauthenticated, 17, 100, math.MaxUint32} {
		got := AppendStatus(nil, c)
		if string(got) != strconv.FormatUint(uint64(c), 10) {
			t.Errorf("AppendStatus(%d) = %q", c, got)
		}
		if back, err := ParseStatus(got); err != nil || back != c {
			t.Errorf("ParseStatus(%q) = %v, %v", got, back, err)
		}
	}
}

func TestCodeString(t *testing.T) {
	for c, want := range map[Code]string{OK: "OK", Canceled: "CANCELLED", DeadlineExceeded: "DEADLINE_EXCEEDED", Unauthenticated: "UNAUTHENTICATED", 17: "CODE(17)"} {
		if got := c.String(); got != want {
			t.Errorf("Code(%d).String() = %q, want %q", c, got, want)
		}
	}
}

// TestAppendStatusTrailers checks the trailers it appends: grpc-status
// as a static atom for the defined codes, grpc-message percent-encoded
// and only when there is a message, and that they validate as trailers.
func TestAppendStatusTrailers(t *testing.T) {
	tests := []struct {
		name      string
		code      Code
		msg       string
		wantValue string
		wantMsg   string // "" for no grpc-message
	}{
		{"ok", OK, "", "0", ""},
		{"with message", NotFound, "no such key: é 100%", "5", "no such key: %C3%A9 100%25"},
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
			if tt.code <= Unauthenticated && f.Value.Atom() == nil {
				t.Errorf("grpc-status %q is not an atom", tt.wantValue)
			}
			m, ok := b.Get(staticdata.KeyGrpcMessage)
			if ok != (tt.wantMsg != "") || m.Value.String() != tt.wantMsg {
				t.Fatalf("grpc-message %v, want %q", m, tt.wantMsg)
			}
			if got := AppendDecodedMessage(nil, m.Value.UnsafeBytes()); ok && string(got) != tt.msg {
				t.Errorf("message decodes to %q", got)
			}
			if err := ValidateResponse(b, Trailers); err != nil {
				t.Errorf("ValidateResponse: %v", err)
			}
		})
	}
	if _, err := AppendStatusTrailers(nil, nil, OK, ""); !errors.Is(err, ErrNilBatch) {
		t.Errorf("nil batch: %v", err)
	}
}
