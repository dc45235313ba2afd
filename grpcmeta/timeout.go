package grpcmeta

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// ErrBadTimeout reports a grpc-timeout value that is not 1 to 8 ASCII digits
// followed by one of the units H, M, S, m, u, n.
var ErrBadTimeout = errors.New("grpcmeta: malformed grpc-timeout")

// ParseTimeout parses a grpc-timeout value ("100m", "5S", ...) into a
// duration; v is a string or bytes. The gRPC HTTP/2 protocol allows at
// most 8 digits; values past the largest time.Duration (about 292 years:
// 99999999H is 11,000) come back as that largest duration.
func ParseTimeout[T ~string | ~[]byte](v T) (time.Duration, error) {
	n := len(v) - 1
	if n < 1 || n > 8 {
		return 0, fmt.Errorf("%w: %q: want 1 to 8 digits and a unit", ErrBadTimeout, v)
	}
	var unit time.Duration
	switch v[n] {
	case 'H':
		unit = time.Hour
	case 'M':
		unit = time.Minute
	case 'S':
		unit = time.Second
	case 'm':
		unit = time.Millisecond
	case 'u':
		unit = time.Microsecond
	case 'n':
		unit = time.Nanosecond
	default:
		return 0, fmt.Errorf("%w: %q: unknown unit %q", ErrBadTimeout, v, v[n])
	}
	var d time.Duration
	for i := range n {
		c := v[i]
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%w: %q: %q is not a digit", ErrBadTimeout, v, c)
		}
		d = d*10 + time.Duration(c-'0')
	}
	if d > math.MaxInt64/unit {
		return math.MaxInt64, nil
	}
	return d * unit, nil
}
