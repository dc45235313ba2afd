package grpcmeta

import (
	"errors"
	"fmt"

	"github.com/metapack/metapack/mdelem"
	sd "github.com/metapack/metapack/staticdata"
)

// Sentinels for ValidateRequest. The errors it returns are *FieldError
// values that wrap one of them.
var (
	ErrPseudoAfterRegular = errors.New("grpcmeta: pseudo-header after a regular header")
	ErrUnknownPseudo      = errors.New("grpcmeta: unknown pseudo-header")
	ErrDuplicatePseudo    = errors.New("grpcmeta: duplicated pseudo-header")
	ErrMissingPseudo      = errors.New("grpcmeta: required pseudo-header missing")
	ErrUppercaseName      = errors.New("grpcmeta: header name has uppercase letters")
	ErrEmptyName          = errors.New("grpcmeta: empty header name")
	ErrConnectionHeader   = errors.New("grpcmeta: connection-specific header")
	ErrBadTE              = errors.New("grpcmeta: te header other than \"trailers\"")
)

// FieldError names the field a validation failed on. ValidateRequest
// returns one for every failure.
type FieldError struct {
	Index int    // the field's position in the batch, or -1 for a missing field
	Name  string // the field's name
	Err   error  // one of the sentinels above
}

func (e *FieldError) Error() string {
	if e.Index < 0 {
		return fmt.Sprintf("%v: %s", e.Err, e.Name)
	}
	return fmt.Sprintf("%v: field %d %q", e.Err, e.Index, e.Name)
}

func (e *FieldError) Unwrap() error { return e.Err }

// connectionSpecific lists the headers RFC 9113 §8.2.2 forbids.
var connectionSpecific = [...]string{"connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"}

// ValidateRequest checks a request header list as a gRPC-style HTTP/2
// server must (RFC 9113 §8.2 and §8.3.1): pseudo-headers first, each of
// :method, :scheme, :path and :authority at most once and no others,
// :method, :scheme and :path present, names lowercase and not empty, no
// connection-specific headers, and te, if present, only "trailers". A nil
// b is an empty list, which lacks the required pseudo-headers.
func ValidateRequest(b *mdelem.Batch) error {
	var seen uint8 // bit per request pseudo-header
	regular := false
	n := 0
	if b != nil { // a nil batch is an empty list
		n = b.Len()
	}
	for i := range n {
		f := b.At(i)
		// Read the name's atom once: its key classifies well-known names.
		a := f.Name.Atom()
		var name string
		key := sd.KeyUnknown
		if a != nil {
			name, key = a.String(), a.Key()
		} else {
			name = f.Name.UnsafeString()
		}
		if len(name) > 0 && name[0] == ':' {
			if regular {
				return fieldErr(i, f, ErrPseudoAfterRegular)
			}
			bit := requestPseudoBit(key)
			if bit == 0 {
				return fieldErr(i, f, ErrUnknownPseudo)
			}
			if seen&bit != 0 {
				return fieldErr(i, f, ErrDuplicatePseudo)
			}
			seen |= bit
			continue
		}
		regular = true
		if err := checkRegular(f, name, key, a != nil && a.IsStatic()); err != nil {
			return fieldErr(i, f, err)
		}
	}
	for _, k := range [...]sd.KeyID{sd.KeyMethod, sd.KeyScheme, sd.KeyPath} {
		if seen&requestPseudoBit(k) == 0 {
			return &FieldError{Index: -1, Name: k.String(), Err: ErrMissingPseudo}
		}
	}
	return nil
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

// checkRegular checks one regular header whose name is name, with key ID
// key; static tells that the name is a static-tier string.
func checkRegular(f mdelem.Field, name string, key sd.KeyID, static bool) error {
	if len(name) == 0 {
		return ErrEmptyName
	}
	switch key {
	case sd.KeyTransferEncoding:
		return ErrConnectionHeader
	case sd.KeyTe:
		if !f.Value.EqualString("trailers") {
			return ErrBadTE
		}
	}
	if static {
		return nil // static names are lowercase, and none other is forbidden
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; 'A' <= c && c <= 'Z' {
			return ErrUppercaseName
		}
	}
	for _, h := range connectionSpecific {
		if name == h {
			return ErrConnectionHeader
		}
	}
	return nil
}

func fieldErr(i int, f mdelem.Field, err error) error {
	return &FieldError{Index: i, Name: f.Name.String(), Err: err}
}
