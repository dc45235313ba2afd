package grpcmeta

import (
	"bytes"
	"encoding/base64"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// stdDecode decodes v as grpc-go does: StdEncoding for a length that is
// a multiple of 4, RawStdEncoding otherwise.
func stdDecode(v []byte) ([]byte, error) {
	if len(v)%4 == 0 {
		return base64.StdEncoding.DecodeString(string(v))
	}
	return base64.RawStdEncoding.DecodeString(string(v))
}

// TestBase64Decode checks the Binary-Header rule "implementations
// MUST accept padded and un-padded values and should emit un-padded
// values" with the RFC 4648 §10 vectors, every data length mod 3, and
// malformed values.
func TestBase64Decode(t *testing.T) {
	tests := []struct {
		name, in, want string
		off            int // the error's offset, or -2 for no error
	}{
		// RFC 4648 §10, padded and unpadded: lengths 0, 1, 2 mod 3.
		{"empty", "", "", -2},
		{"f padded", "Zg==", "f", -2},
		{"f unpadded", "Zg", "f", -2},
		{"fo padded", "Zm8=", "fo", -2},
		{"fo unpadded", "Zm8", "fo", -2},
		{"foo", "Zm9v", "foo", -2},
		{"foob padded", "Zm9vYg==", "foob", -2},
		{"foob unpadded", "Zm9vYg", "foob", -2},
		{"fooba padded", "Zm9vYmE=", "fooba", -2},
		{"fooba unpadded", "Zm9vYmE", "fooba", -2},
		{"foobar", "Zm9vYmFy", "foobar", -2},
		{"high bytes", "/+8=", "\xff\xef", -2},
		// Leftover bits that are not zero are ignored, as grpc-go does.
		{"nonzero leftover bits", "Zh", "f", -2},
		{"one char", "Z", "", 0},
		{"five chars", "Zm9vY", "", 4},
		{"short padding", "Zg=", "", 2},
		{"long padding", "Zg===", "", 2},
		{"padding inside", "Zg==Zg==", "", 4},
		{"padding first", "=Zm9", "", 0},
		{"padding after one", "Z===", "", 1},
		{"invalid char", "Zm9v!", "", 4},
		{"space", "Zm 9v", "", 2},
		{"url alphabet", "-_8", "", 0},
		{"joined values", "Zg,Zm8", "", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prefix := []byte("pre")
			got, err := appendBase64Decode(prefix, []byte(tt.in))
			if tt.off == -2 {
				if err != nil || string(got) != "pre"+tt.want {
					t.Fatalf("appendBase64Decode(%q) = %q, %v; want %q", tt.in, got, err, "pre"+tt.want)
				}
				return
			}
			var ve *FieldError
			if !errors.Is(err, ErrValue) || !errors.As(err, &ve) || ve.Offset != tt.off || ve.Reason == "" {
				t.Fatalf("appendBase64Decode(%q) error %v, want ErrValue at byte %d", tt.in, err, tt.off)
			}
			if string(got) != "pre" {
				t.Errorf("appendBase64Decode(%q) appended %q on error", tt.in, got)
			}
			if _, serr := stdDecode([]byte(tt.in)); serr == nil {
				t.Errorf("%q: encoding/base64 accepts it", tt.in)
			}
		})
	}
}

// TestBase64EveryLength round-trips random data of every length from 0
// to 64 through AppendBinary (unpadded) and the padded encoding.
func TestBase64EveryLength(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 65 {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		out := mdelem.NewBatch(1, 128)
		if _, err := AppendBinary(out, nil, "x-bin", data); err != nil {
			t.Fatal(err)
		}
		raw := out.At(0).Value.UnsafeBytes()
		if bytes.ContainsRune(raw, '=') || string(raw) != base64.RawStdEncoding.EncodeToString(data) {
			t.Fatalf("AppendBinary of %d bytes = %q", n, raw)
		}
		for _, enc := range [][]byte{raw, []byte(base64.StdEncoding.EncodeToString(data))} {
			got, err := appendBase64Decode(nil, enc)
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("appendBase64Decode(%q) = %x, %v; want %x", enc, got, err, data)
			}
		}
	}
}

// TestCheckBase64 holds checkBase64, which ValidateMetadata uses, to
// appendBase64Decode on every string of up to 6 bytes over an alphabet
// with each kind of byte.
func TestCheckBase64(t *testing.T) {
	const alphabet = "AQ/=!,"
	var s []byte
	var walk func(n int)
	cases := 0
	walk = func(n int) {
		_, err := appendBase64Decode(nil, s)
		off, reason := checkBase64(s)
		if (err == nil) != (reason == "") || (reason == "") != (off == -1) {
			t.Fatalf("%q: checkBase64 = %d, %q; appendBase64Decode error %v", s, off, reason, err)
		}
		cases++
		if n == 0 {
			return
		}
		for i := range len(alphabet) {
			s = append(s, alphabet[i])
			walk(n - 1)
			s = s[:len(s)-1]
		}
	}
	walk(6)
	t.Logf("%d strings", cases)
}

func TestIsBinary(t *testing.T) {
	for _, tt := range []struct {
		name string
		want bool
	}{
		{"x-trace-bin", true}, {"grpc-status-details-bin", true}, {"-bin", true},
		{"bin", false}, {"x-bin-not", false}, {"x-BIN", false}, {"", false}, {"x-bi", false},
	} {
		if got := IsBinary(tt.name); got != tt.want {
			t.Errorf("IsBinary(%q) = %v", tt.name, got)
		}
	}
}

// TestAppendBinaryRoundTrip appends binary fields to a batch and reads
// them back: the wire value is unpadded base64, the read value the bytes.
func TestAppendBinaryRoundTrip(t *testing.T) {
	tests := []struct {
		name  string
		value string
		wire  string
	}{
		{"x-trace-bin", "\x00\x01\x02\xff", "AAEC/w"},
		{"grpc-trace-bin", "ab", "YWI"},
		{"grpc-status-details-bin", "", ""},
		{"a-bin", "abc", "YWJj"},
	}
	b := mdelem.NewBatch(4, 64)
	var scratch []byte
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b.Reset()
			var err error
			scratch, err = AppendBinary(b, scratch, tt.name, []byte(tt.value))
			if err != nil || b.Len() != 1 || b.Err() != nil {
				t.Fatalf("AppendBinary: %v, %d fields, batch error %v", err, b.Len(), b.Err())
			}
			f := b.At(0)
			if f.Value.String() != tt.wire || f.Name.String() != tt.name {
				t.Errorf("field %v, want value %q", f, tt.wire)
			}
			if a := staticdata.Lookup(tt.name); a != nil && f.Name.Atom() != a {
				t.Errorf("well-known name %q not appended as its atom", tt.name)
			}
			got, err := DecodeBinary(nil, f)
			if err != nil || string(got) != tt.value {
				t.Errorf("DecodeBinary = %q, %v; want %q", got, err, tt.value)
			}
		})
	}
}

func TestAppendBinaryErrors(t *testing.T) {
	b := mdelem.NewBatch(2, 64)
	if _, err := AppendBinary(b, nil, "x-trace", []byte("v")); !errors.Is(err, ErrName) || b.Len() != 0 {
		t.Errorf("AppendBinary to a name without -bin: %v, %d fields", err, b.Len())
	}
	if _, err := AppendBinary(nil, nil, "x-bin", []byte("v")); !errors.Is(err, ErrArgument) {
		t.Errorf("AppendBinary to nil: %v", err)
	}
	tests := []struct {
		test        string
		name, value string
		want        error
		off         int
	}{
		{"not binary", "x-trace", "YWI", ErrName, -1},
		{"bad char", "x-trace-bin", "YW*", ErrValue, 2},
		{"joined", "x-trace-bin", "YWI,YWI", ErrValue, 3},
	}
	for _, tt := range tests {
		t.Run(tt.test, func(t *testing.T) {
			f := mdelem.From(mdelem.BorrowString(tt.name), mdelem.BorrowString(tt.value))
			_, err := DecodeBinary(nil, f)
			var ve *FieldError
			if !errors.Is(err, tt.want) || !errors.As(err, &ve) || ve.Name != tt.name || ve.Offset != tt.off {
				t.Fatalf("DecodeBinary(%v) = %v, want %v naming %q at %d", f, err, tt.want, tt.name, tt.off)
			}
			if !strings.Contains(err.Error(), tt.name) {
				t.Errorf("message %q does not name the field", err)
			}
		})
	}
}
