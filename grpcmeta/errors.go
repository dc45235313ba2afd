package grpcmeta

import (
	"errors"
	"strconv"
)

// Sentinels for the value errors. A *ValueError wraps one of them, and the
// batch validations return a *FieldError whose Err is such a *ValueError:
// errors.Is finds the sentinel through both.
var (
	ErrBadBase64  = errors.New("grpcmeta: -bin value is not base64")
	ErrBadValue   = errors.New("grpcmeta: value byte outside 0x20-0x7E")
	ErrBadName    = errors.New("grpcmeta: metadata name outside [0-9a-z_.-]")
	ErrBadStatus  = errors.New("grpcmeta: grpc-status is not a decimal integer")
	ErrNotBinary  = errors.New("grpcmeta: field name does not end in -bin")
	ErrBadTimeout = errors.New("grpcmeta: malformed grpc-timeout")
)

// ValueError reports a value that breaks the gRPC grammar: which field,
// where in the value and why. Parsers that take a bare value (ParseStatus,
// ParseTimeout) name the key they parse; inside a *FieldError, which names
// the field, Name is "".
type ValueError struct {
	Name   string // the field's name, or "" inside a *FieldError
	Offset int    // the offending byte's offset in the value, or -1 for the value as a whole
	Reason string // what is wrong there
	Err    error  // one of the sentinels above
}

func (e *ValueError) Error() string {
	s := "grpcmeta: invalid value"
	if e.Err != nil {
		s = e.Err.Error()
	}
	if e.Name != "" {
		s += ": field " + strconv.Quote(e.Name)
	}
	if e.Offset >= 0 {
		s += ": byte " + strconv.Itoa(e.Offset)
	}
	if e.Reason != "" {
		s += ": " + e.Reason
	}
	return s
}

func (e *ValueError) Unwrap() error { return e.Err }

// valueErr returns a *FieldError for field i of fields, wrapping a
// *ValueError with the offset and reason.
func valueErr(i int, name string, off int, reason string, err error) error {
	return &FieldError{Index: i, Name: name, Err: &ValueError{Offset: off, Reason: reason, Err: err}}
}
