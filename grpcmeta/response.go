package grpcmeta

import (
	"github.com/metapack/metapack/internal/httpfield"
	"github.com/metapack/metapack/internal/httpfield/fieldkey"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// ResponseKind says which header block of a response ValidateResponse
// checks.
type ResponseKind uint8

const (
	// ResponseHeaders is the first block of a response that will carry
	// messages: :status 200 and a gRPC content-type.
	ResponseHeaders ResponseKind = iota + 1
	// ResponseTrailers is the last block, with END_STREAM: grpc-status
	// and no pseudo-headers.
	ResponseTrailers
	// ResponseTrailersOnly is a response's only block, for a call that
	// fails at once: the headers' rules and the trailers' together.
	ResponseTrailersOnly
)

// ValidateResponse checks a response header block of the given kind and
// returns a *FieldError naming the first field that breaks a rule; nil b
// is an empty block. In every kind, names are lowercase and not empty
// (ErrName), none is connection-specific (ErrConnectionHeader), and
// grpc-message comes only with grpc-status (ErrStatus). Then:
//
//   - ResponseHeaders and ResponseTrailersOnly: pseudo-headers first,
//     only :status, once (ErrPseudoHeader), and "200" (ErrStatus); a
//     content-type that Value.ContentType takes for gRPC
//     (ErrContentType).
//   - ResponseTrailers and ResponseTrailersOnly: grpc-status present and
//     a decimal integer (ErrStatus).
//   - ResponseTrailers: no pseudo-header (ErrPseudoHeader).
//
// Custom metadata is ValidateMetadata's to check. Content-type and
// grpc-status are read by ValueOf; it does not allocate unless it fails.
func ValidateResponse(b *mdelem.Batch, kind ResponseKind) error {
	if kind < ResponseHeaders || kind > ResponseTrailersOnly {
		return &FieldError{Index: -1, Offset: -1, Reason: "unknown ResponseKind", Err: ErrArgument}
	}
	n := 0
	if b != nil {
		n = b.Len()
	}
	head, trail := kind != ResponseTrailers, kind != ResponseHeaders
	ctype, gstatus, gmessage := -1, -1, -1
	var s httpfield.Section
	for i := range n {
		f := b.At(i)
		key := staticdata.KeyUnknown
		var pseudo bool
		if a := f.Name.Atom(); a != nil && a.Key() != staticdata.KeyUnknown {
			key = a.Key()
			pseudo = fieldkey.Pseudo(key) != 0
		} else if a != nil {
			name := a.String()
			pseudo = len(name) > 0 && name[0] == ':'
		} else {
			name := f.Name.UnsafeBytes()
			pseudo = len(name) > 0 && name[0] == ':'
		}
		if pseudo {
			err := errPseudoInTrailers
			if head {
				err = rules[s.Pseudo(fieldkey.Pseudo(key), httpfield.Response)]
			}
			if err == nil && f.Value.UnsafeString() != "200" {
				err = errHTTPStatus
			}
			if err != nil {
				return fieldErr(i, f, err)
			}
			continue
		}
		s.Order(false)
		switch key {
		case staticdata.KeyUnknown:
			var err *rule
			if a := f.Name.Atom(); a != nil {
				err = checkName(a.String())
			} else {
				err = checkName(f.Name.UnsafeBytes())
			}
			if err != nil {
				return fieldErr(i, f, err)
			}
		case staticdata.KeyTransferEncoding:
			return fieldErr(i, f, errConnectionHeader)
		case staticdata.KeyContentType:
			if head && ctype < 0 {
				if ValueOf(f.Value).ContentType() == ContentTypeOther {
					return fieldErr(i, f, errContentType)
				}
				ctype = i
			}
		case staticdata.KeyGrpcStatus:
			if trail && gstatus < 0 {
				if _, ok := ValueOf(f.Value).Status(); !ok {
					_, off, reason := parseStatus(f.Value.String()) // failing: a copy is fine
					return valueErr(i, f.Name.String(), off, reason, ErrStatus)
				}
			}
			if gstatus < 0 {
				gstatus = i
			}
		case staticdata.KeyGrpcMessage:
			if gmessage < 0 {
				gmessage = i
			}
		}
	}
	if head && s.Seen() == 0 {
		return missingErr(":status", errMissingPseudo)
	}
	if head && ctype < 0 {
		return missingErr("content-type", errMissingContentType)
	}
	if gmessage >= 0 && gstatus < 0 {
		return fieldErr(gmessage, b.At(gmessage), errMessageWithoutStatus)
	}
	if trail && gstatus < 0 {
		return missingErr("grpc-status", errMissingStatus)
	}
	return nil
}
