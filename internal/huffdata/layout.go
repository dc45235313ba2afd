package huffdata

import "github.com/metapack/metapack/internal/tabledef"

// The layout of the decode tables, defined in package tabledef, which the
// generator reads too.
const (
	HuffmanFastBits       = tabledef.HuffmanFastBits
	HuffmanFastCountShift = tabledef.HuffmanFastCountShift
	HuffmanFastSym1Shift  = tabledef.HuffmanFastSym1Shift
	HuffmanFastSym2Shift  = tabledef.HuffmanFastSym2Shift
	HuffmanFastLen1Shift  = tabledef.HuffmanFastLen1Shift
	HuffmanMidStart       = tabledef.HuffmanMidStart
	HuffmanMidBits        = tabledef.HuffmanMidBits
	HuffmanHighStart      = tabledef.HuffmanHighStart
	HuffmanHighBits       = tabledef.HuffmanHighBits
	HuffmanEOS            = tabledef.HuffmanEOS
)

// HuffmanEncoder is the layout of HuffmanEncodeTables: each byte's code in
// the forms an encoder combines them in, and two helpers for placing bits,
// in one struct so that one base register reaches every table. Two codes
// a, b join as Code[a]*Pow[b] | Code[b]: a multiply, because a variable
// shift on amd64 v1 needs its count in CX.
type HuffmanEncoder struct {
	Code [256]uint64 // code of byte c, right-aligned
	Pow  [256]uint64 // 1 << the length of c's code
	Len  [256]uint64 // length of c's code, 5 to 30 bits
	// Top[k] is 1 << (64-k) for 1 <= k <= 64, and 0 above: multiplying by
	// it moves the low k bits of a word to its top. 256 entries, so that a
	// uint8 index needs no bounds check.
	Top [256]uint64
	// Bytes[k] is k/8: the whole bytes in k bits of output.
	Bytes [256]uint64
}
