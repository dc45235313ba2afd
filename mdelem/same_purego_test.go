//go:build purego

package mdelem

// sameStr reports whether s and t are the same Str: the same atom, the same
// tag, and slices of the same bytes (a Str's slice has no spare capacity,
// so an empty one is compared by nilness only).
func sameStr(s, t Str) bool {
	if s.a != t.a || s.tag != t.tag || len(s.b) != len(t.b) || (s.b == nil) != (t.b == nil) {
		return false
	}
	return len(s.b) == 0 || &s.b[0] == &t.b[0]
}
