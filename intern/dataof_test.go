//go:build !purego

package intern

import (
	"testing"
	"unsafe"
)

// TestDataOf checks the layout sameBytes relies on: dataOf finds the bytes
// of a string and of a slice.
func TestDataOf(t *testing.T) {
	b := []byte("header")
	s := "header"
	if dataOf(&b) != unsafe.Pointer(unsafe.SliceData(b)) {
		t.Error("dataOf(slice) is not the slice's data")
	}
	if dataOf(&s) != unsafe.Pointer(unsafe.StringData(s)) {
		t.Error("dataOf(string) is not the string's data")
	}
}
