//go:build linux

package guardpage

import (
	"os"
	"syscall"
	"testing"
	"unsafe"
)

// Supported reports whether this system can map guard pages.
const Supported = true

// mapping is one mmap: a PROT_NONE page, the data pages, a PROT_NONE page.
type mapping struct {
	mem                []byte
	dataStart, dataEnd int // the data pages, mem[dataStart:dataEnd]
}

// mapGuarded maps room for n bytes between two guard pages and unmaps it
// when t ends.
func mapGuarded(t testing.TB, n int) *mapping {
	t.Helper()
	if n < 0 {
		t.Fatalf("guardpage: negative size %d", n)
	}
	page := os.Getpagesize()
	data := (n + page - 1) / page * page
	if data == 0 {
		data = page // an empty buffer still sits against both guards
	}
	mem, err := syscall.Mmap(-1, 0, data+2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatalf("guardpage: mmap: %v", err)
	}
	t.Cleanup(func() {
		if err := syscall.Munmap(mem); err != nil {
			t.Errorf("guardpage: munmap: %v", err)
		}
	})
	for _, off := range []int{0, page + data} {
		if err := syscall.Mprotect(mem[off:off+page], syscall.PROT_NONE); err != nil {
			t.Fatalf("guardpage: mprotect: %v", err)
		}
	}
	return &mapping{mem: mem, dataStart: page, dataEnd: page + data}
}

// bytesString returns b's bytes as a string without copying: the point is
// that the string's bytes sit against the guard, which a copy would undo.
// b is not written afterwards.
func bytesString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}
