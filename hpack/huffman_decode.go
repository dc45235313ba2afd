package hpack

import (
	"math"

	"github.com/metapack/metapack/internal/huffdata"
)

// Field extraction from a first-level decode table entry.
const (
	fastUsedMask  = 0x3f
	fastCountMask = 0x3 << huffdata.HuffmanFastCountShift
	fastLen1Mask  = 0x1f << huffdata.HuffmanFastLen1Shift
	fastShift     = 64 - huffdata.HuffmanFastBits
	maxCodeBits   = 30 // the longest Huffman code
	// decodeSlack is the room beyond the decoded length that the rounds
	// want to run to the end of an input.
	decodeSlack = fastRoom
	// fastRoom is the room the fast loop wants per refill: four lookups
	// of two bytes each, as a fixed-size window (see decodeHuffmanFast).
	fastRoom = 16
)

// AppendHuffmanDecode appends the decoding of the Huffman-coded src to dst
// and returns the extended buffer. A decoding longer than maxLen bytes
// fails with ErrStringLength, having grown dst only as far as maxLen needs;
// maxLen <= 0 means no limit. Invalid input (RFC 7541 §5.2: EOS in the
// string, padding over 7 bits or not all ones) yields an error matching
// ErrInvalidHuffman. On error dst's length is left as it was. It does not
// allocate when dst has room for len(src)*8/5+16 more bytes.
func AppendHuffmanDecode(dst, src []byte, maxLen int) ([]byte, error) {
	if maxLen <= 0 {
		maxLen = math.MaxInt
	}
	return appendHuffmanDecode(dst, src, maxLen)
}

// stepsBudget caps how many steps decodeHuffmanSteps takes before it
// returns to the rounds, which decode text faster.
const stepsBudget = 32

// longFirst is the least left-aligned bit buffer that starts with a code
// longer than HuffmanFastBits: every such code starts with HuffmanMidStart
// ones, and no shorter code does (the generator checks).
const longFirst = math.MaxUint64 >> (64 - huffdata.HuffmanMidStart) << (64 - huffdata.HuffmanMidStart)

// eosFirst is the least left-aligned bit buffer that starts with EOS, 30
// ones.
const eosFirst = math.MaxUint64 >> (64 - maxCodeBits) << (64 - maxCodeBits)

// Where the long tables read the bit buffer (see huffdata.HuffmanMidStart).
const (
	midShift  = 64 - huffdata.HuffmanMidStart - huffdata.HuffmanMidBits
	midMask   = 1<<huffdata.HuffmanMidBits - 1
	highShift = 64 - huffdata.HuffmanHighStart - huffdata.HuffmanHighBits
	highMask  = 1<<huffdata.HuffmanHighBits - 1
	// highFirst is the least left-aligned bit buffer that starts with
	// HuffmanHighStart ones: the codes of the high table.
	highFirst = math.MaxUint64 >> (64 - huffdata.HuffmanHighStart) << (64 - huffdata.HuffmanHighStart)
)

// decodeLong returns the entry, in the layout of a first-level entry that
// decodes one symbol, for the code longer than HuffmanFastBits at the top
// of buf, or zero for EOS. buf must hold the code's bits (30 of them cover
// any code). Neither lookup waits for a loop or for the other. The choice
// between them compiles to a conditional move alone, and to a branch
// where it is inlined. The tail and the careful path use it, for the few
// long codes they meet; decodeHuffmanSteps, for runs of long codes,
// selects with masks instead.
func decodeLong(buf uint64) uint32 {
	// The masks keep the indexes in range: no bounds checks.
	e := huffdata.HuffmanDecodeMid[buf>>midShift&midMask]
	h := huffdata.HuffmanDecodeHigh[buf>>highShift&highMask]
	// buf >= highFirst, tested with a shift: a compare with the constant
	// would keep it in a register through the loops that inline this.
	if ^buf>>(64-huffdata.HuffmanHighStart) == 0 {
		e = h
	}
	return uint32(e)
}
