package staticdata

// Layout of HuffmanDecodeFast entries. An entry decodes up to two whole
// symbols from the next HuffmanFastBits bits of input:
//
//	bits  0-7   first symbol
//	bits  8-15  second symbol (when count is 2)
//	bits 16-20  bits consumed by the decoded symbols
//	bits 21-22  count of symbols decoded: 1 or 2
//	bits 23-27  length of the first symbol's code
//
// Count 0 means the code is longer than HuffmanFastBits: the low 16 bits are
// the offset of a sub-table in HuffmanDecodeLong, and bits 16-20 its width
// (the number of further input bits that index it).
const (
	HuffmanFastBits       = 12
	HuffmanFastSym2Shift  = 8
	HuffmanFastUsedShift  = 16
	HuffmanFastCountShift = 21
	HuffmanFastLen1Shift  = 23
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
