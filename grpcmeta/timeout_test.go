package grpcmeta

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// TestParseTimeout checks Timeout: TimeoutValue, at most 8 digits, then
// a TimeoutUnit among H M S m u n.
func TestParseTimeout(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		off  int // the error's offset, or -2 for none
	}{
		{"1H", time.Hour, -2},
		{"2M", 2 * time.Minute, -2},
		{"30S", 30 * time.Second, -2},
		{"100m", 100 * time.Millisecond, -2},
		{"250u", 250 * time.Microsecond, -2},
		{"99999999n", 99999999, -2},
		{"00000001S", time.Second, -2},
		{"99999999H", math.MaxInt64, -2}, // clamped
		{"2562047H", 2562047 * time.Hour, -2},
		{"2562048H", math.MaxInt64, -2},
		{"0m", 0, -2},
		{"", 0, -1},
		{"m", 0, -1},
		{"123456789m", 0, 8}, // 9 digits
		{"1234567890n", 0, 8},
		{"10x", 0, 2},
		{"10h", 0, 2},
		{"1.5S", 0, 1},
		{"-1S", 0, 0},
		{"+1S", 0, 0},
		{"10 S", 0, 2},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseTimeout([]byte(tt.in))
			got2, err2 := ParseTimeout(tt.in)
			if got != got2 || (err == nil) != (err2 == nil) {
				t.Fatalf("string and bytes disagree: %v, %v and %v, %v", got, err, got2, err2)
			}
			if tt.off == -2 {
				if err != nil || got != tt.want {
					t.Fatalf("ParseTimeout(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
				}
				return
			}
			var ve *FieldError
			if !errors.Is(err, ErrValue) || !errors.As(err, &ve) || ve.Offset != tt.off || ve.Name != "grpc-timeout" {
				t.Fatalf("ParseTimeout(%q) = %v, %v; want ErrValue at byte %d", tt.in, got, err, tt.off)
			}
		})
	}
}

// TestAppendTimeout checks AppendTimeout at each unit's boundary, at 8
// digits, and past 8 digits, where it rounds up.
func TestAppendTimeout(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "0n"},
		{-time.Second, "0n"},
		{1, "1n"},
		{999, "999n"},
		{time.Microsecond, "1u"},
		{1001, "1001n"},
		{time.Millisecond, "1m"},
		{time.Second, "1S"},
		{time.Minute, "1M"},
		{59 * time.Second, "59S"},
		{61 * time.Second, "61S"},
		{90 * time.Minute, "90M"},
		{time.Hour, "1H"},
		{25 * time.Hour, "25H"},
		{99999999, "99999999n"},                    // 8 digits, exact
		{100000000, "100m"},                        // exact in a larger unit
		{100000001, "100001u"},                     // 9 digits of n: rounded up
		{99999999 * time.Microsecond, "99999999u"}, // 8 digits of u
		{99999999*time.Microsecond + 1, "100000m"}, // rounded up to m
		{99999999 * time.Millisecond, "99999999m"},
		{99999999*time.Millisecond + time.Microsecond, "100000S"},
		{99999999 * time.Second, "99999999S"},
		{100000001 * time.Second, "1666667M"}, // 1666666.68M, rounded up
		{99999999 * time.Minute, "99999999M"},
		{100000000 * time.Minute, "1666667H"}, // 1666666.67H, rounded up
		{math.MaxInt64, "2562048H"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			got := AppendTimeout([]byte("p"), tt.d)
			if string(got) != "p"+tt.want {
				t.Fatalf("AppendTimeout(%d) = %q, want %q", tt.d, got[1:], tt.want)
			}
			back, err := ParseTimeout(got[1:])
			if err != nil || back < max(tt.d, 0) {
				t.Fatalf("ParseTimeout(%q) = %v, %v: shorter than %v", got[1:], back, err, tt.d)
			}
		})
	}
}

// TestTimeoutRoundTrip checks, on random durations of every magnitude,
// that AppendTimeout's value parses, is never shorter than the
// duration, is exact when some value of at most 8 digits is, and is no
// longer than needed: one less in its unit would be too short.
func TestTimeoutRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 100000 {
		d := time.Duration(r.Int64N(math.MaxInt64>>r.IntN(63)) + 1)
		if r.IntN(2) == 0 {
			u := timeoutUnits[r.IntN(len(timeoutUnits))].d
			d = d / u * u
		}
		v := AppendTimeout(nil, d)
		if len(v) > 9 {
			t.Fatalf("AppendTimeout(%d) = %q: more than 8 digits", d, v)
		}
		back, err := ParseTimeout(v)
		if err != nil || back < d {
			t.Fatalf("AppendTimeout(%d) = %q, which parses to %v, %v", d, v, back, err)
		}
		exact := false
		for _, u := range timeoutUnits {
			if d%u.d == 0 && d/u.d <= maxTimeoutValue {
				exact = true
			}
		}
		if exact && back != d {
			t.Fatalf("AppendTimeout(%d) = %q, not exact", d, v)
		}
		if back != d && back != math.MaxInt64 {
			var unit time.Duration
			for _, u := range timeoutUnits {
				if u.c == v[len(v)-1] {
					unit = u.d
				}
			}
			if back-unit >= d {
				t.Fatalf("AppendTimeout(%d) = %q: one unit less is still long enough", d, v)
			}
		}
	}
}
