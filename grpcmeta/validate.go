package grpcmeta

import (
	"github.com/metapack/metapack/internal/le"

	"github.com/metapack/metapack/mdelem"
	sd "github.com/metapack/metapack/staticdata"
)

// ValidateRequest checks a request header list as a gRPC-style HTTP/2
// server must (RFC 9113 §8.2 and §8.3.1) and returns a *FieldError
// naming the first field that breaks a rule: pseudo-headers first, each
// of :method, :scheme, :path and :authority at most once and no others,
// :method, :scheme and :path present (ErrPseudoHeader), names lowercase
// and not empty (ErrName), no connection-specific headers, and te, if
// present, only "trailers" (ErrConnectionHeader). A nil b is an empty
// list, which lacks the required pseudo-headers.
//
// A name that is the atom of a well-known key is classified by its key
// alone: those names are lowercase, the only ones that start with ':' are
// the five pseudo-header keys, and the only connection-specific one is
// transfer-encoding (TestKeyNamesClassified). Other names, static-tier
// strings that are no key ("", "POST") included, are checked byte by
// byte.
func ValidateRequest(b *mdelem.Batch) error {
	n := 0
	if b != nil { // a nil batch is an empty list
		n = b.Len()
	}
	var seen uint8 // bit per request pseudo-header
	regular := false
	for i := range n {
		f := b.At(i)
		var err *rule
		if a := f.Name.Atom(); a != nil && a.Key() != sd.KeyUnknown {
			key := a.Key()
			if isPseudoKey(key) {
				bit := requestPseudoBit(key)
				switch {
				case regular:
					err = errPseudoAfterRegular
				case bit == 0:
					err = errUnknownPseudo
				case seen&bit != 0:
					err = errDuplicatePseudo
				default:
					seen |= bit
					continue
				}
				return fieldErr(i, f, err)
			}
			regular = true
			switch key {
			case sd.KeyTransferEncoding:
				err = errConnectionHeader
			case sd.KeyTe:
				if f.Value.UnsafeString() != "trailers" {
					err = errBadTE
				}
			}
		} else {
			var pseudo bool
			if a := f.Name.Atom(); a != nil {
				// A static-tier string that is no key, or an interned name.
				name := a.String()
				pseudo, err = len(name) > 0 && name[0] == ':', checkName(name)
			} else {
				name := f.Name.UnsafeBytes()
				pseudo, err = len(name) > 0 && name[0] == ':', checkName(name)
			}
			if pseudo {
				// Every pseudo-header a request may carry is a key.
				if regular {
					return fieldErr(i, f, errPseudoAfterRegular)
				}
				return fieldErr(i, f, errUnknownPseudo)
			}
			regular = true
		}
		if err != nil {
			return fieldErr(i, f, err)
		}
	}
	for _, k := range [...]sd.KeyID{sd.KeyMethod, sd.KeyScheme, sd.KeyPath} {
		if seen&requestPseudoBit(k) == 0 {
			return missingErr(k.String(), errMissingPseudo)
		}
	}
	return nil
}

// isPseudoKey reports whether k is the key of a name that starts with
// ':'.
func isPseudoKey(k sd.KeyID) bool {
	switch k {
	case sd.KeyMethod, sd.KeyScheme, sd.KeyPath, sd.KeyAuthority, sd.KeyStatus:
		return true
	}
	return false
}

func requestPseudoBit(k sd.KeyID) uint8 {
	switch k {
	case sd.KeyMethod:
		return 1
	case sd.KeyScheme:
		return 2
	case sd.KeyPath:
		return 4
	case sd.KeyAuthority:
		return 8
	}
	return 0
}

// checkName checks the name of a regular header that is not the atom of a
// well-known key: not empty, lowercase, and none of the connection-specific headers
// RFC 9113 §8.2.2 forbids.
func checkName[T string | []byte](name T) *rule {
	if len(name) == 0 {
		return errEmptyName
	}
	if hasUpper(name) {
		return errUppercaseName
	}
	switch string(name) {
	case "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade":
		return errConnectionHeader
	}
	return nil
}

// hasUpper reports whether s has a byte in 'A'..'Z'. It tests eight bytes
// at a time, the last eight overlapping the ones before when len(s) is not
// a multiple of eight.
func hasUpper[T string | []byte](s T) bool {
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
