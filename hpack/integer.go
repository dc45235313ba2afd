package hpack

import "github.com/metapack/metapack/internal/hcode"

// maxInt is the largest integer a representation may carry: 2^32-1. Index,
// length and size values beyond it are errors, never overflow.
const maxInt = 1<<32 - 1

const (
	intOK        = hcode.IntOK
	intTruncated = hcode.IntTruncated
	intOverflow  = hcode.IntOverflow
)

// readInt reads an integer with an n-bit prefix, up to maxInt.
func readInt(p []byte, n uint) (uint64, int, hcode.IntResult) { return hcode.ReadInt(p, n, maxInt) }

// appendInt appends v with an n-bit prefix below first's flag bits.
func appendInt(dst []byte, first byte, n uint, v uint64) []byte {
	return hcode.AppendInt(dst, n, first, v)
}
