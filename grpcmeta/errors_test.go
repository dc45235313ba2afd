package grpcmeta

import (
	"errors"
	"testing"

	"github.com/metapack/metapack/mdelem"
)

// TestErrorDepth holds every kind of error the package returns to two
// levels: a *FieldError whose Unwrap is one of the sentinels, which
// unwraps to nothing, so errors.Is finds the sentinel directly.
func TestErrorDepth(t *testing.T) {
	sentinels := []error{ErrPseudoHeader, ErrName, ErrConnectionHeader, ErrValue, ErrContentType, ErrStatus, ErrArgument}
	bin := mdelem.From(mdelem.BorrowString("x-bin"), mdelem.BorrowString("A*"))
	notBin := mdelem.From(mdelem.BorrowString("x-a"), mdelem.BorrowString("AA"))
	_, timeoutErr := ParseTimeout("5x")
	_, binErr := DecodeBinary(nil, bin)
	_, notBinErr := DecodeBinary(nil, notBin)
	_, appendErr := AppendBinary(nil, nil, "x-bin", nil)
	_, statusErr := AppendStatusTrailers(nil, nil, 0, "")
	errs := map[string]error{
		"request":   ValidateRequest(batchOf(":method", "GET", ":bad", "x")),
		"missing":   ValidateRequest(nil),
		"name":      ValidateRequest(batchOf(":method", "GET", ":scheme", "http", ":path", "/", "X", "1")),
		"te":        ValidateRequest(batchOf(":method", "GET", ":scheme", "http", ":path", "/", "te", "gzip")),
		"metadata":  ValidateMetadata(batchOf("x-a", "\x01")),
		"response":  ValidateResponse(batchOf(":status", "404"), ResponseHeaders),
		"kind":      ValidateResponse(nil, 0),
		"status":    ValidateResponse(batchOf("grpc-status", "x"), ResponseTrailers),
		"ctype":     ValidateResponse(batchOf(":status", "200"), ResponseHeaders),
		"timeout":   timeoutErr,
		"base64":    binErr,
		"not -bin":  notBinErr,
		"nil batch": appendErr,
		"nil b":     statusErr,
	}
	for name, err := range errs {
		var fe *FieldError
		if !errors.As(err, &fe) || err != error(fe) {
			t.Errorf("%s: %v (%T) is not a *FieldError", name, err, err)
			continue
		}
		inner := errors.Unwrap(err)
		found := false
		for _, s := range sentinels {
			found = found || inner == s
		}
		if !found || errors.Unwrap(inner) != nil || !errors.Is(err, inner) {
			t.Errorf("%s: %v wraps %v, not one sentinel", name, err, inner)
		}
	}
}
