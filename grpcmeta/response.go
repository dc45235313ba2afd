package grpcmeta

import (
	"errors"

	"github.com/metapack/metapack/mdelem"
	sd "github.com/metapack/metapack/staticdata"
)

// ResponseKind says which header block of a response ValidateResponse
// checks.
type ResponseKind uint8

// The header blocks of a gRPC response (Response in the protocol).
const (
	// ResponseHeaders is the first block of a response that will carry
	// messages: :status 200 and a gRPC content-type.
	ResponseHeaders ResponseKind = iota + 1
	// Trailers is the last block, with END_STREAM: grpc-status and no
	// pseudo-headers.
	Trailers
	// TrailersOnly is a response's only block, for a call that fails at
	// once: the headers' rules and the trailers' together.
	TrailersOnly
)

// Sentinels for ValidateResponse, besides those of ValidateRequest
// (ErrPseudoAfterRegular, ErrUnknownPseudo, ErrDuplicatePseudo,
// ErrMissingPseudo, ErrUppercaseName, ErrEmptyName, ErrConnectionHeader)
// and ErrBadStatus.
var (
	ErrHTTPStatus           = errors.New("grpcmeta: :status other than 200")
	ErrContentType          = errors.New("grpcmeta: content-type missing or not application/grpc")
	ErrMissingStatus        = errors.New("grpcmeta: grpc-status missing")
	ErrMessageWithoutStatus = errors.New("grpcmeta: grpc-message without grpc-status")
	ErrPseudoInTrailers     = errors.New("grpcmeta: pseudo-header in trailers")
	ErrResponseKind         = errors.New("grpcmeta: unknown ResponseKind")
)

// ValidateResponse checks a response header block of the given kind and
// returns a *FieldError naming the first field that breaks a rule, or,
// for a missing field, its name with Index -1; nil b is an empty block.
// In every kind, names are lowercase and not empty, there are no
// connection-specific headers, and grpc-message comes only with
// grpc-status (ErrMessageWithoutStatus, at the grpc-message). Then:
//
//   - ResponseHeaders and TrailersOnly: pseudo-headers first, only
//     :status, once, and "200" (ErrHTTPStatus); a content-type that
//     ParseContentType takes for gRPC (ErrContentType).
//   - Trailers and TrailersOnly: grpc-status present (ErrMissingStatus)
//     and a decimal integer (ErrBadStatus, wrapped in a *ValueError).
//   - Trailers: no pseudo-header (ErrPseudoInTrailers).
//
// Custom metadata is ValidateMetadata's to check. ValidateResponse
// classifies content-type and grpc-status by ValueOf, so an atom value is
// parsed once per process; it does not allocate unless it fails.
func ValidateResponse(b *mdelem.Batch, kind ResponseKind) error {
	if kind < ResponseHeaders || kind > TrailersOnly {
		return ErrResponseKind
	}
	n := 0
	if b != nil {
		n = b.Len()
	}
	head, trail := kind != Trailers, kind != ResponseHeaders
	status, ctype, gstatus, gmessage := -1, -1, -1, -1
	regular := false
	for i := range n {
		f := b.At(i)
		key := sd.KeyUnknown
		var pseudo bool
		if a := f.Name.Atom(); a != nil && a.Key() != sd.KeyUnknown {
			key = a.Key()
			pseudo = isPseudoKey(key)
		} else if a != nil {
			name := a.String()
			pseudo = len(name) > 0 && name[0] == ':'
		} else {
			name := f.Name.UnsafeBytes()
			pseudo = len(name) > 0 && name[0] == ':'
		}
		if pseudo {
			var err error
			switch {
			case !head:
				err = ErrPseudoInTrailers
			case regular:
				err = ErrPseudoAfterRegular
			case key != sd.KeyStatus:
				err = ErrUnknownPseudo
			case status >= 0:
				err = ErrDuplicatePseudo
			case f.Value.UnsafeString() != "200":
				err = ErrHTTPStatus
			default:
				status = i
				continue
			}
			return fieldErr(i, f, err)
		}
		regular = true
		switch key {
		case sd.KeyUnknown:
			var err error
			if a := f.Name.Atom(); a != nil {
				err = checkName(a.String())
			} else {
				err = checkName(f.Name.UnsafeBytes())
			}
			if err != nil {
				return fieldErr(i, f, err)
			}
		case sd.KeyTransferEncoding:
			return fieldErr(i, f, ErrConnectionHeader)
		case sd.KeyContentType:
			if head && ctype < 0 {
				if !ValueOf(f.Value).ContentType().IsGRPC() {
					return fieldErr(i, f, ErrContentType)
				}
				ctype = i
			}
		case sd.KeyGrpcStatus:
			if trail && gstatus < 0 {
				if _, ok := ValueOf(f.Value).Status(); !ok {
					off, reason := statusReason(f.Value)
					return valueErr(i, f.Name.String(), off, reason, ErrBadStatus)
				}
			}
			if gstatus < 0 {
				gstatus = i
			}
		case sd.KeyGrpcMessage:
			if gmessage < 0 {
				gmessage = i
			}
		}
	}
	if head && status < 0 {
		return &FieldError{Index: -1, Name: ":status", Err: ErrMissingPseudo}
	}
	if head && ctype < 0 {
		return &FieldError{Index: -1, Name: "content-type", Err: ErrContentType}
	}
	if gmessage >= 0 && gstatus < 0 {
		return fieldErr(gmessage, b.At(gmessage), ErrMessageWithoutStatus)
	}
	if trail && gstatus < 0 {
		return &FieldError{Index: -1, Name: "grpc-status", Err: ErrMissingStatus}
	}
	return nil
}

// statusReason says why a grpc-status value is not a decimal integer.
func statusReason(v mdelem.Str) (int, string) {
	if a := v.Atom(); a != nil {
		return checkStatus(a.String())
	}
	return checkStatus(v.UnsafeBytes())
}
