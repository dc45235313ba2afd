//go:build !purego

package mdelem

// sameStr reports whether s and t are the same Str: the same pointer and
// the same tag.
func sameStr(s, t Str) bool { return s == t }
