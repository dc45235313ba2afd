package grpcmeta

import (
	"errors"
	"strconv"

	"github.com/metapack/metapack/internal/httpfield"
	"github.com/metapack/metapack/mdelem"
)

// The sentinels, one per rule, that every *FieldError wraps.
var (
	// ErrPseudoHeader: a pseudo-header after a regular header, unknown,
	// duplicated, missing, or in trailers (RFC 9113 §8.3).
	ErrPseudoHeader = errors.New("grpcmeta: pseudo-header rule broken")
	// ErrName: a name empty, with uppercase letters (RFC 9113 §8.2.1),
	// outside gRPC's 0-9 a-z _ - ., reserved ("grpc-..."), or, for the
	// binary functions, not ending in "-bin".
	ErrName = errors.New("grpcmeta: invalid field name")
	// ErrConnectionHeader: a connection-specific header, or te not "trailers".
	ErrConnectionHeader = errors.New("grpcmeta: connection-specific header")
	// ErrValue: a value that breaks its grammar (metadata, -bin, timeout).
	ErrValue = errors.New("grpcmeta: invalid field value")
	// ErrContentType: a response's content-type missing or not gRPC's.
	ErrContentType = errors.New("grpcmeta: content-type missing or not application/grpc")
	// ErrStatus: a response's :status other than 200, or its grpc-status
	// missing, not a decimal integer, or missing beside grpc-message.
	ErrStatus = errors.New("grpcmeta: response status rule broken")
	// ErrArgument: a nil batch to append to, or an unknown ResponseKind.
	ErrArgument = errors.New("grpcmeta: invalid argument")
)

// FieldError names the field a check failed on and the rule it broke.
type FieldError struct {
	Index  int    // the field's position in the batch, or -1 for a missing field or a bare value
	Name   string // the field's name
	Offset int    // the offending byte's offset (in the name for ErrName, else in the value), or -1
	Reason string // what is wrong there, or ""
	Err    error  // one of the sentinels
}

func (e *FieldError) Error() string {
	s := "grpcmeta: invalid field"
	if e.Err != nil {
		s = e.Err.Error()
	}
	if e.Index >= 0 {
		s += ": field " + strconv.Itoa(e.Index)
	}
	if e.Name != "" {
		s += " " + strconv.Quote(e.Name)
	}
	if e.Offset >= 0 {
		s += ": byte " + strconv.Itoa(e.Offset)
	}
	if e.Reason != "" {
		s += ": " + e.Reason
	}
	return s
}

func (e *FieldError) Unwrap() error { return e.Err }

// rule is a broken rule: the sentinel a FieldError wraps and its reason.
type rule struct {
	err    error
	reason string
}

func (r *rule) Error() string { return r.err.Error() + ": " + r.reason }

// The rules the request and response checks report.
var (
	errPseudoAfterRegular   = &rule{ErrPseudoHeader, "after a regular header"}
	errUnknownPseudo        = &rule{ErrPseudoHeader, "unknown"}
	errDuplicatePseudo      = &rule{ErrPseudoHeader, "duplicated"}
	errMissingPseudo        = &rule{ErrPseudoHeader, "required and missing"}
	errPseudoInTrailers     = &rule{ErrPseudoHeader, "in trailers"}
	errUppercaseName        = &rule{ErrName, "uppercase letters"}
	errEmptyName            = &rule{ErrName, "empty"}
	errConnectionHeader     = &rule{ErrConnectionHeader, "forbidden in HTTP/2"}
	errBadTE                = &rule{ErrConnectionHeader, "te other than \"trailers\""}
	errHTTPStatus           = &rule{ErrStatus, ":status other than 200"}
	errMissingStatus        = &rule{ErrStatus, "missing"}
	errMessageWithoutStatus = &rule{ErrStatus, "grpc-message without grpc-status"}
	errContentType          = &rule{ErrContentType, "not gRPC's"}
	errMissingContentType   = &rule{ErrContentType, "missing"}
)

// rules maps the pseudo-header checks' reasons to the package's rules.
var rules = [httpfield.NumReasons]*rule{
	httpfield.PseudoAfterRegular: errPseudoAfterRegular,
	httpfield.UnknownPseudo:      errUnknownPseudo,
	httpfield.DuplicatePseudo:    errDuplicatePseudo,
}

// errNilBatch is the error for a nil batch to append to.
func errNilBatch() error {
	return &FieldError{Index: -1, Offset: -1, Reason: "nil batch", Err: ErrArgument}
}

// fieldErr is the error for field i of a batch, f, which broke r.
func fieldErr(i int, f mdelem.Field, r *rule) error {
	return &FieldError{Index: i, Name: f.Name.String(), Offset: -1, Reason: r.reason, Err: r.err}
}

// missingErr is the error for a required field name that is missing.
func missingErr(name string, r *rule) error {
	return &FieldError{Index: -1, Name: name, Offset: -1, Reason: r.reason, Err: r.err}
}

// valueErr is the error for field i, at byte off (or -1), wrapping err.
func valueErr(i int, name string, off int, reason string, err error) error {
	return &FieldError{Index: i, Name: name, Offset: off, Reason: reason, Err: err}
}
