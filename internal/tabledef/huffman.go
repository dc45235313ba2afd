package tabledef

// Layout of the entries of huffdata.HuffmanDecodeFast, the first-level
// decode table. An entry decodes up to two whole
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
// HuffmanFastBits, and the entry is zero: a decoder that shifts by such an
// entry and advances its output by its count, without testing it,
// consumes nothing and writes nothing that it keeps.
const (
	HuffmanFastBits       = 13
	HuffmanFastCountShift = 6
	HuffmanFastSym1Shift  = 8
	HuffmanFastSym2Shift  = 16
	HuffmanFastLen1Shift  = 24
)

// Codes longer than HuffmanFastBits all start with HuffmanMidStart ones and
// are read from two tables, whose lookups need nothing but the input bits
// and so can be made at once, with no branch between them: a code with
// under HuffmanHighStart leading ones is found in huffdata.HuffmanDecodeMid, indexed
// by the HuffmanMidBits bits after the first HuffmanMidStart; a code with
// more is found in huffdata.HuffmanDecodeHigh, indexed by the HuffmanHighBits bits
// after the first HuffmanHighStart. An entry of either is the low 16 bits
// of a first-level entry that decodes one symbol (the code's length, count
// 1, the symbol), or zero for EOS.
const (
	HuffmanMidStart  = 12
	HuffmanMidBits   = 11
	HuffmanHighStart = 18
	HuffmanHighBits  = 12
)

// HuffmanEOS is the end-of-string symbol.
const HuffmanEOS = 256
