package headerblock

import (
	"errors"
	"fmt"
)

// framerDetail words a FieldError as x/net's Framer words the error
// detail of the same stream error, for ErrorDetail: code that shows the
// Framer's detail, such as grpc-go in a stream's status, reads the same
// words.
func framerDetail(fe *FieldError) error {
	switch {
	case errors.Is(fe, ErrInvalidValue):
		return fmt.Errorf("invalid header field value for %q", fe.Name)
	case errors.Is(fe, ErrInvalidName):
		return fmt.Errorf("invalid header field name %q", fe.Name)
	case errors.Is(fe, ErrPseudoAfterRegular):
		return errors.New("pseudo header field after regular")
	case errors.Is(fe, ErrDuplicatePseudo):
		return fmt.Errorf("duplicate pseudo-header %q", fe.Name)
	case errors.Is(fe, ErrMixedPseudo):
		return errors.New("mix of request and response pseudo headers")
	}
	return fmt.Errorf("invalid pseudo-header %q", fe.Name)
}
