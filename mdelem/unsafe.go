package mdelem

import "unsafe"

// bytesView returns b's bytes as a string without copying, for lookups that
// neither keep nor modify it.
func bytesView(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}
