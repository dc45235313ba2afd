package staticdata

// Layout of HuffmanDecodeFast entries. An entry decodes up to two whole
// symbols from the next HuffmanFastBits bits of input:
//
//	bits  0-5   bits consumed by the decoded symbols
//	bits  6-7   count of symbols decoded: 1 or 2
//	bits  8-15  first symbol
//	bits 16-23  second symbol (when count is 2)
//	bits 24-28  length of the first symbol's code
//
// The consumed bits sit lowest so that a decoder can shift its bit buffer
// by the entry itself. Count 0 means the code is longer than
// HuffmanFastBits: bits 8-23 are the offset of a sub-table in
// HuffmanDecodeLong, bits 24-28 its width (the number of further input
// bits that index it), and bits 0-5 are zero: a decoder that shifts by
// such an entry and advances its output by its count, without testing
// it, consumes nothing and writes nothing that it keeps.
const (
	HuffmanFastBits        = 12
	HuffmanFastCountShift  = 6
	HuffmanFastSym1Shift   = 8
	HuffmanFastSym2Shift   = 16
	HuffmanFastLen1Shift   = 24
	HuffmanFastOffsetShift = 8
	HuffmanFastWidthShift  = 24
)

// Layout of HuffmanDecodeLong entries. A leaf holds the symbol (0-256, 256 is
// EOS) in bits 0-8 and the code's total length in bits 16-20. An entry with
// HuffmanLongLink set points to a further sub-table: offset in bits 0-15,
// width in bits 16-20.
const (
	HuffmanLongLink       = 1 << 31
	HuffmanLongWidthShift = 16
	HuffmanLongLenShift   = 16
)

// HuffmanEOS is the end-of-string symbol.
const HuffmanEOS = 256

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
