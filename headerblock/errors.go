package headerblock

import (
	"errors"
	"strconv"

	"github.com/metapack/metapack/internal/httpfield"
)

// Not grpcmeta's FieldError: this one mirrors x/net's conditions.

// A FieldError is the Cause of the http2.StreamError that reports an
// invalid field or an invalid set of pseudo-header fields. It never
// holds the field's value, which may be a secret.
type FieldError struct {
	Name  string // the field's name; empty for ErrMixedPseudo
	Index int    // the field's position in the header block, from 0; -1 for ErrMixedPseudo
	Err   error  // one of the Err sentinels below
}

func (e *FieldError) Error() string {
	reason := "invalid field"
	if e.Err != nil {
		reason = e.Err.Error()
	}
	if e.Index < 0 {
		return "headerblock: " + reason
	}
	return "headerblock: field " + strconv.Itoa(e.Index) + " " + strconv.Quote(e.Name) + ": " + reason
}

func (e *FieldError) Unwrap() error { return e.Err }

// Reasons for a FieldError (errors.Is finds them).
var (
	ErrInvalidName        = errors.New("invalid field name")
	ErrInvalidValue       = errors.New("invalid field value")
	ErrPseudoAfterRegular = errors.New("pseudo-header field after a regular field")
	ErrUnknownPseudo      = errors.New("unknown pseudo-header field")
	ErrDuplicatePseudo    = errors.New("duplicate pseudo-header field")
	ErrMixedPseudo        = errors.New("request and response pseudo-header fields mixed")
)

// reasons maps the rules' reasons to the sentinels.
var reasons = [httpfield.NumReasons]error{
	httpfield.InvalidName:        ErrInvalidName,
	httpfield.InvalidValue:       ErrInvalidValue,
	httpfield.PseudoAfterRegular: ErrPseudoAfterRegular,
	httpfield.UnknownPseudo:      ErrUnknownPseudo,
	httpfield.DuplicatePseudo:    ErrDuplicatePseudo,
}
