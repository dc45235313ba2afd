package grpcmeta

import (
	"errors"
	"github.com/metapack/metapack/intern"
	"strings"
	"testing"

	"github.com/metapack/metapack/internal/httpfield"
	"github.com/metapack/metapack/internal/httpfield/fieldkey"
	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// TestValidateMetadata checks Custom-Metadata: Header-Name is 1*(0-9 a-z
// _ - .), ASCII-Value is %x20-7E, a Binary-Header's value is base64, and
// names starting "grpc-" that the protocol does not list are reserved.
// The first offending field is reported, with the byte and the reason.
func TestValidateMetadata(t *testing.T) {
	tests := []struct {
		name string
		kv   []string
		want error
		at   int // the field's index
		off  int // the offset in the name or value
	}{
		{"valid", []string{":path", "/a.B/C", "x-user_id.v2", "Alice ~!", "x-trace-bin", "AAEC/w", "x-pad-bin", "AA==", "authorization", "Bearer t"}, nil, 0, 0},
		{"protocol names", []string{"grpc-timeout", "1S", "grpc-encoding", "gzip", "grpc-message-type", "T", "grpc-trace-bin", "AAEC", "grpc-status-details-bin", "", "grpc-previous-rpc-attempts", "1"}, nil, 0, 0},
		{"empty value", []string{"x-empty", ""}, nil, 0, 0},
		{"pseudo-headers skipped", []string{":weird", "\x00"}, nil, 0, 0},
		{"uppercase name", []string{"x-ok", "1", "X-Up", "1"}, ErrName, 1, 0},
		{"space in name", []string{"x a", "1"}, ErrName, 0, 1},
		{"slash in name", []string{"x/a", "1"}, ErrName, 0, 1},
		{"empty name", []string{"", "1"}, ErrName, 0, -1},
		{"static string not a key", []string{"POST", "1"}, ErrName, 0, 0},
		{"reserved", []string{"grpc-custom", "1"}, ErrName, 0, -1},
		{"reserved bin", []string{"grpc-x-bin", "AA"}, ErrName, 0, -1},
		{"newline in value", []string{"x-a", "ok", "x-b", "a\nb"}, ErrValue, 1, 1},
		{"del in value", []string{"x-a", "\x7f"}, ErrValue, 0, 0},
		{"utf-8 in value", []string{"x-a", "é"}, ErrValue, 0, 0},
		{"bad value of a known key", []string{"user-agent", "a\x01"}, ErrValue, 0, 1},
		{"bad base64", []string{"x-trace-bin", "AA!A"}, ErrValue, 0, 2},
		{"bad padding", []string{"x-trace-bin", "A==="}, ErrValue, 0, 1},
		{"one char", []string{"x-trace-bin", "AAAAA"}, ErrValue, 0, 4},
		{"joined binary", []string{"x-trace-bin", "AA,AA"}, ErrValue, 0, 2},
		{"newline in base64", []string{"x-trace-bin", "AA\nAA"}, ErrValue, 0, 2},
		{"bad known binary", []string{"grpc-trace-bin", "*"}, ErrValue, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ValidateMetadata(batchOf(tt.kv...))
			if tt.want == nil {
				if err != nil {
					t.Fatalf("ValidateMetadata: %v", err)
				}
				return
			}
			var fe *FieldError
			var ve *FieldError
			if !errors.Is(err, tt.want) || !errors.As(err, &fe) || !errors.As(err, &ve) {
				t.Fatalf("error %v, want %v", err, tt.want)
			}
			if fe.Index != tt.at || fe.Name != tt.kv[2*tt.at] || ve.Offset != tt.off || ve.Reason == "" {
				t.Fatalf("error %v: field %d %q byte %d, want field %d byte %d", err, fe.Index, fe.Name, ve.Offset, tt.at, tt.off)
			}
		})
	}
	if err := ValidateMetadata(nil); err != nil {
		t.Errorf("ValidateMetadata(nil) = %v", err)
	}
}

// TestValidateMetadataEveryByte checks each byte value as a name byte
// and as a value byte, ASCII and binary, against the grammar's ranges.
func TestValidateMetadataEveryByte(t *testing.T) {
	for c := range 256 {
		s := string([]byte{byte(c)})
		nameOK := strings.IndexByte("0123456789abcdefghijklmnopqrstuvwxyz_-.", byte(c)) >= 0
		if err := ValidateMetadata(batchOf("x"+s, "v")); (err == nil) != nameOK {
			t.Errorf("name byte %#x: %v", c, err)
		}
		if err := ValidateMetadata(batchOf("x", "v"+s)); (err == nil) != (c >= 0x20 && c <= 0x7e) {
			t.Errorf("value byte %#x: %v", c, err)
		}
		b64 := base64Char(byte(c))
		if err := ValidateMetadata(batchOf("x-bin", "AA"+s+"A")); (err == nil) != b64 {
			t.Errorf("binary value byte %#x: %v", c, err)
		}
	}
}

// TestKeyNamesAreMetadataNames checks what ValidateMetadata assumes of
// well-known names, which it does not check: every one that is no
// pseudo-header is a Header-Name, and those starting "grpc-" are the
// protocol's own.
func TestKeyNamesAreMetadataNames(t *testing.T) {
	protocol := map[string]bool{
		"grpc-timeout": true, "grpc-encoding": true, "grpc-accept-encoding": true,
		"grpc-status": true, "grpc-message": true, "grpc-status-details-bin": true,
		"grpc-previous-rpc-attempts": true, "grpc-retry-pushback-ms": true,
		"grpc-trace-bin": true, "grpc-tags-bin": true,
	}
	for id := range tier.NumAtoms {
		a := tier.ByID(id)
		if a.Key() == staticdata.KeyUnknown || fieldkey.Pseudo(a.Key()) != 0 {
			continue
		}
		name := a.String()
		if i := httpfield.Outside(name, httpfield.GRPC); i >= 0 {
			t.Errorf("key %q: byte %d is no Header-Name byte", name, i)
		}
		if strings.HasPrefix(name, "grpc-") && !protocol[name] {
			t.Errorf("key %q starts with grpc- but is not the protocol's", name)
		}
	}
}

// TestValidateMetadataInterned checks names and values that are atoms
// outside the static tier, as a decoder with an interner gives them.
func TestValidateMetadataInterned(t *testing.T) {
	tab := newTable(t)
	name, _ := intern.Make(tab, "x-Tenant")
	ok, _ := intern.Make(tab, "x-tenant")
	val, _ := intern.Make(tab, "acme")
	pseudo, _ := intern.Make(tab, ":x")
	b := mdelem.NewBatch(4, 0)
	b.Append(mdelem.From(pseudo, val))
	b.Append(mdelem.From(ok, val))
	if err := ValidateMetadata(b); err != nil {
		t.Fatalf("interned: %v", err)
	}
	b.Append(mdelem.From(name, val))
	var fe *FieldError
	if err := ValidateMetadata(b); !errors.Is(err, ErrName) || !errors.As(err, &fe) || fe.Index != 2 {
		t.Fatalf("interned uppercase name: %v", err)
	}
}
