package httpfield

import "github.com/metapack/metapack/internal/le"

// Class is a set of the bytes a name may have, a bit each.
type Class uint8

// The classes of name bytes.
const (
	// Token is the bytes of an HTTP/2 field name (RFC 9113 §8.2.1): the
	// tchar of RFC 9110 §5.6.2 but uppercase letters.
	Token Class = 1 << iota
	// GRPC is the bytes of a gRPC Custom-Metadata Header-Name, 0-9 a-z
	// _ - ., which are Token bytes too.
	GRPC
)

var classes = func() (t [256]Class) {
	for _, c := range "!#$%&'*+^`|~" {
		t[c] = Token
	}
	for _, c := range "0123456789abcdefghijklmnopqrstuvwxyz_-." {
		t[c] = Token | GRPC
	}
	return t
}()

// Outside returns the offset of the first byte of s that is not in c, or
// -1.
func Outside[T string | []byte](s T, c Class) int {
	for i := 0; i < len(s); i++ {
		if classes[s[i]]&c == 0 {
			return i
		}
	}
	return -1
}

// ValidName reports whether name is a valid regular field name: one or
// more Token bytes.
func ValidName(name string) bool { return name != "" && Outside(name, Token) < 0 }

// IsName reports whether s is a valid field name, a pseudo-header field's
// after its ':'.
func IsName(s string) bool {
	if len(s) > 0 && s[0] == ':' {
		s = s[1:]
	}
	return ValidName(s)
}

// ConnectionSpecific reports whether name is a connection-specific field
// that RFC 9113 §8.2.2 forbids whatever its value (te, allowed with the
// value "trailers", aside).
func ConnectionSpecific[T string | []byte](name T) bool {
	switch string(name) {
	case "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade":
		return true
	}
	return false
}

// HasUpper reports whether s has a byte in 'A'..'Z'. It tests eight bytes
// at a time, the last eight overlapping the ones before when len(s) is not
// a multiple of eight.
func HasUpper[T string | []byte](s T) bool {
	if len(s) < 8 {
		for i := 0; i < len(s); i++ {
			if c := s[i]; 'A' <= c && c <= 'Z' {
				return true
			}
		}
		return false
	}
	for i := 0; i < len(s)-8; i += 8 {
		if upperIn(le.Uint64(s[i:])) {
			return true
		}
	}
	return upperIn(le.Uint64(s[len(s)-8:]))
}

// upperIn reports whether one of the eight bytes of w is in 'A'..'Z'. On
// each byte's low seven bits x, x + 0x80-'A' has its high bit set when
// x >= 'A', and x + 0x80-'Z'-1 when x > 'Z', with no carry into the next
// byte; a byte whose own high bit is set is no letter.
func upperIn(w uint64) bool {
	const ones = 0x0101010101010101
	const high = 0x80 * ones
	x := w &^ high
	ge := x + (0x80-'A')*ones
	gt := x + (0x80-'Z'-1)*ones
	return ge&^gt&^w&high != 0
}
