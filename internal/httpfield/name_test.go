package httpfield

import (
	"fmt"
	"strings"
	"testing"
)

// tchar is RFC 9110 §5.6.2's tchar, ALPHA included, spelled out.
const tchar = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// inClass is each Class written from its grammar: RFC 9113 §8.2.1's
// field name bytes are tchar but uppercase; gRPC's Header-Name is
// 1*( %x30-39 / %x61-7A / "_" / "-" / "." ).
func inClass(c byte, class Class) bool {
	switch class {
	case Token:
		return strings.IndexByte(tchar, c) >= 0 && !('A' <= c && c <= 'Z')
	case GRPC:
		return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || c == '_' || c == '-' || c == '.'
	}
	panic("unknown class")
}

// TestClasses checks every byte of every class, alone and among valid
// bytes, as a string and as bytes, with Outside and (for Token)
// ValidName and IsName.
func TestClasses(t *testing.T) {
	for _, class := range []Class{Token, GRPC} {
		t.Run(fmt.Sprintf("class=%d", class), func(t *testing.T) {
			for c := range 256 {
				want := inClass(byte(c), class)
				if want && !inClass(byte(c), Token) {
					t.Fatalf("byte %#x is in class %d but no Token byte", c, class)
				}
				for _, tt := range []struct {
					s   string
					off int
				}{{string([]byte{byte(c)}), 0}, {"x-" + string([]byte{byte(c)}) + "-y", 2}} {
					wantOff := -1
					if !want {
						wantOff = tt.off
					}
					if got := Outside(tt.s, class); got != wantOff {
						t.Errorf("Outside(%q) = %d, want %d", tt.s, got, wantOff)
					}
					if got := Outside([]byte(tt.s), class); got != wantOff {
						t.Errorf("Outside([]byte(%q)) = %d, want %d", tt.s, got, wantOff)
					}
					if class != Token {
						continue
					}
					if got := ValidName(tt.s); got != want {
						t.Errorf("ValidName(%q) = %v, want %v", tt.s, got, want)
					}
					if got := IsName(":" + tt.s); got != want {
						t.Errorf("IsName(%q) = %v, want %v", ":"+tt.s, got, want)
					}
				}
			}
		})
	}
}

func TestNames(t *testing.T) {
	tests := []struct {
		s             string
		valid, isName bool
	}{
		{"", false, false},
		{":", false, false},
		{"::", false, false},
		{"::a", false, false},
		{":method", false, true},
		{":x-custom", false, true},
		{":Method", false, false},
		{"content-type", true, true},
		{"a!#$%&'*+-.^_`|~0", true, true},
		{"x-" + strings.Repeat("z", 200), true, true},
		{"Content-Type", false, false},
		{"a b", false, false},
		{"a:b", false, false},
		{"a\x80", false, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q", tt.s), func(t *testing.T) {
			if got := ValidName(tt.s); got != tt.valid {
				t.Errorf("ValidName = %v, want %v", got, tt.valid)
			}
			if got := IsName(tt.s); got != tt.isName {
				t.Errorf("IsName = %v, want %v", got, tt.isName)
			}
		})
	}
}

func TestConnectionSpecific(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"connection", true},
		{"keep-alive", true},
		{"proxy-connection", true},
		{"transfer-encoding", true},
		{"upgrade", true},
		{"te", false}, // allowed with "trailers"
		{"", false},
		{"Connection", false}, // uppercase is a rule of its own
		{"connection ", false},
		{"content-type", false},
		{"upgrade-insecure-requests", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ConnectionSpecific(tt.name); got != tt.want {
				t.Errorf("ConnectionSpecific(%q) = %v, want %v", tt.name, got, tt.want)
			}
			if got := ConnectionSpecific([]byte(tt.name)); got != tt.want {
				t.Errorf("ConnectionSpecific([]byte(%q)) = %v, want %v", tt.name, got, tt.want)
			}
		})
	}
}

// TestHasUpper compares HasUpper with the plain test on every length up
// to 24, with each of the 256 byte values at each position among bytes
// that are no letter, as a string and as bytes.
func TestHasUpper(t *testing.T) {
	for c := range 256 {
		want := 'A' <= c && c <= 'Z'
		for n := 0; n <= 24; n++ {
			for at := range n {
				b := []byte(strings.Repeat("x", n))
				b[at] = byte(c)
				if got := HasUpper(string(b)); got != want {
					t.Errorf("HasUpper(%q) = %v, want %v", b, got, want)
				}
				if got := HasUpper(b); got != want {
					t.Errorf("HasUpper([]byte(%q)) = %v, want %v", b, got, want)
				}
			}
		}
	}
	if HasUpper("") {
		t.Error(`HasUpper("") = true`)
	}
}
