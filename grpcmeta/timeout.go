package grpcmeta

import (
	"math"
	"strconv"
	"time"
)

const maxTimeoutValue = 99999999

// timeoutUnits are the TimeoutUnits, largest first, each dividing the
// one before (AppendTimeout relies on it).
var timeoutUnits = [...]struct {
	d time.Duration
	c byte
}{
	{time.Hour, 'H'}, {time.Minute, 'M'}, {time.Second, 'S'},
	{time.Millisecond, 'm'}, {time.Microsecond, 'u'}, {time.Nanosecond, 'n'},
}

// ParseTimeout parses a grpc-timeout value ("100m", "5S", ...) of at
// most 8 digits into a duration; one past the largest time.Duration
// (about 292 years) comes back as that. A malformed value is ErrValue,
// with the offending byte's offset. It does not allocate unless it
// fails.
func ParseTimeout[T ~string | ~[]byte](v T) (time.Duration, error) {
	n := len(v) - 1
	if n < 1 {
		return 0, timeoutErr(-1, "want 1 to 8 digits and a unit")
	}
	if n > 8 {
		return 0, timeoutErr(8, "more than 8 digits")
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
		return 0, timeoutErr(n, "not a unit (H, M, S, m, u or n)")
	}
	var d time.Duration
	for i := range n {
		c := v[i]
		if c < '0' || c > '9' {
			return 0, timeoutErr(i, "not a digit")
		}
		d = d*10 + time.Duration(c-'0')
	}
	if d > math.MaxInt64/unit {
		return math.MaxInt64, nil
	}
	return d * unit, nil
}

func timeoutErr(off int, reason string) error {
	return &FieldError{Index: -1, Name: "grpc-timeout", Offset: off, Reason: reason, Err: ErrValue}
}

// AppendTimeout appends d as a grpc-timeout value and returns the
// extended buffer: the shortest exact value of at most 8 digits ("1S",
// not "1000m"), or, where none is exact, the smallest one not less than
// d, so a deadline sent is never shorter than meant (100000001ns is
// "100001u"). A d of 0 or less is "0n", as grpc-go sends it. It does not
// allocate beyond growing dst.
func AppendTimeout(dst []byte, d time.Duration) []byte {
	if d <= 0 {
		return append(dst, '0', 'n')
	}
	// Exact: the largest unit that divides d gives the fewest digits.
	for _, u := range timeoutUnits {
		if d%u.d == 0 {
			if q := d / u.d; q <= maxTimeoutValue {
				return append(strconv.AppendInt(dst, int64(q), 10), u.c)
			}
			break
		}
	}
	// Rounded up: the smallest unit in which d fits 8 digits.
	for i := len(timeoutUnits) - 1; i >= 0; i-- {
		u := timeoutUnits[i]
		if q := (d-1)/u.d + 1; q <= maxTimeoutValue {
			return append(strconv.AppendInt(dst, int64(q), 10), u.c)
		}
	}
	return dst // unreachable: any duration fits 8 digits of hours
}
