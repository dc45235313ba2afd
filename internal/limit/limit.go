// Package limit is the module's one convention for the limits a caller
// sets: 0 means the default, and a negative value means no limit.
package limit

import "math"

// None stands for no limit: no input reaches it, and adding or subtracting
// another limit cannot overflow.
const None = math.MaxInt / 4

// Value maps a setter's argument to its limit: 0 the default def, a
// negative n None, anything else n itself, at most None.
func Value(n, def int) int {
	switch {
	case n == 0:
		return def
	case n < 0:
		return None
	}
	return min(n, None)
}
