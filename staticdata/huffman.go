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
