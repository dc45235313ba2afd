package limit

import (
	"math"
	"testing"
)

func TestValue(t *testing.T) {
	for _, tc := range []struct{ n, def, want int }{
		{0, 64, 64}, {-1, 64, None}, {math.MinInt, 64, None}, {1, 64, 1}, {None + 1, 64, None},
	} {
		if got := Value(tc.n, tc.def); got != tc.want {
			t.Errorf("Value(%d, %d) = %d, want %d", tc.n, tc.def, got, tc.want)
		}
	}
}
