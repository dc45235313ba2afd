package httpfield

import "github.com/metapack/metapack/internal/le"

// ValidValue reports whether value is a valid field value as x/net
// checks it: no control characters but horizontal tab, no DEL. It tests
// eight bytes at a time for one below 0x20 or equal to 0x7f, and looks at
// the bytes themselves only when it finds one, which may be a tab.
func ValidValue(value string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for len(value) >= 8 {
		x := le.Uint64(value)
		y := x ^ (0x7f * ones)
		// A byte below 0x20 (the high bit of those at or above 0x80 is
		// masked out by ^x), or a zero byte of y, a 0x7f of x.
		if ((x-0x20*ones)&^x|(y-ones)&^y)&highs != 0 && !validBytes(value[:8]) {
			return false
		}
		value = value[8:]
	}
	return validBytes(value)
}

// validBytes is ValidValue a byte at a time.
func validBytes(value string) bool {
	for i := 0; i < len(value); i++ {
		if c := value[i]; (c < ' ' && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}
