// Package guardpage gives tests buffers that sit directly against memory
// that cannot be read or written, so that a read or write one byte outside
// the buffer crashes the test with SIGSEGV instead of passing silently.
//
// Go's race detector and checkptr do not check reads past a slice's end
// through (*[8]byte)(p) conversions, and the heap almost always has mapped
// memory after an allocation, so an over-read of a few bytes goes unseen
// everywhere else. Here each buffer is carved out of a fresh mapping whose
// first and last pages are PROT_NONE.
//
// Mappings need Linux (syscall.Mmap and Mprotect); elsewhere Supported
// reports false and the helpers skip the test with a message.
package guardpage
