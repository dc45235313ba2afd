//go:build !linux

package guardpage

import "testing"

// Supported reports whether this system can map guard pages.
const Supported = false

type mapping struct {
	mem                []byte
	dataStart, dataEnd int
}

func mapGuarded(t testing.TB, n int) *mapping {
	t.Helper()
	t.Skip("guardpage: guard pages need Linux (mmap and mprotect); skipping")
	return nil
}

func bytesString(b []byte) string { return string(b) }
