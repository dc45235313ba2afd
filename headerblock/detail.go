package headerblock

import (
	"errors"
	"fmt"
)

// framerDetail words a FieldError as x/net's Framer words its error
// detail, for code that shows it, such as grpc-go in a stream's status.
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
