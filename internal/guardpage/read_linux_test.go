//go:build linux

package guardpage

import "unsafe"

// readAt reads b[off] with no bounds check, for TestGuardFaults.
func readAt(b []byte, off int) byte {
	return *(*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), off))
}
