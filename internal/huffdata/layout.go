package huffdata

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
// under HuffmanHighStart leading ones is found in HuffmanDecodeMid, indexed
// by the HuffmanMidBits bits after the first HuffmanMidStart; a code with
// more is found in HuffmanDecodeHigh, indexed by the HuffmanHighBits bits
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
