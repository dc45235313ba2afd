//go:build purego

package intern

// sameBytes is equal for s and b of the same length.
func sameBytes[T string | []byte](s string, b T) bool { return sameBytesSafe(s, b) }
