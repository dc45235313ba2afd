//go:build !purego

package hcode

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/metapack/metapack/internal/huffdata"
)

// What the unsafe rounds and steps need beyond the shared tables.
const (
	// decodeSlack is the room past the decoded length the rounds want.
	decodeSlack = fastRoom
	fastRoom    = 16 // the room a round wants
	// stepsBudget caps the steps taken before going back to the rounds.
	stepsBudget = 32
	// longFirst is the least bit buffer that starts with a code longer
	// than HuffmanFastBits, all of which start with HuffmanMidStart ones.
	longFirst = math.MaxUint64 >> (64 - huffdata.HuffmanMidStart) << (64 - huffdata.HuffmanMidStart)
	// eosFirst is the least bit buffer that starts with EOS, 30 ones.
	eosFirst = math.MaxUint64 >> (64 - MaxCodeBits) << (64 - MaxCodeBits)
	// highFirst is the least bit buffer that starts with a high code.
	highFirst = math.MaxUint64 >> (64 - huffdata.HuffmanHighStart) << (64 - huffdata.HuffmanHighStart)
)

// AppendDecode appends the decoding of the Huffman-coded src (RFC 7541
// §5.2) to dst. A decoding longer than maxLen bytes fails with ErrTooLong,
// and maxLen <= 0 allows nothing; invalid input fails with ErrEOS or
// ErrPadding. On error dst's length is left as it was; nothing is written
// at or past dst[len(dst)+maxLen]. It does not allocate when dst has room
// for len(src)*8/5+16 more bytes. Its pure-Go twin is AppendDecodeSafe.
func AppendDecode(dst, src []byte, maxLen int) ([]byte, error) {
	maxLen = max(maxLen, 0) // a negative cap allows nothing, as 0 does
	start := len(dst)
	// Short strings with room decode from registers alone.
	if n := uint(len(src)); n < 16 {
		if need := n*8/5 + 1 + fastRoom; uint(cap(dst)-start) >= need && maxLen >= int(need) {
			o, q, err := decodeHuffmanTail(dst[:cap(dst)], start, src, int(n), 0)
			if err = tailEnd(err, n*8, q); err != nil {
				return dst[:start], err
			}
			return dst[:o], nil
		}
	}
	// Every code is 5 bits or more: at most len(src)*8/5 bytes out.
	if want := min(len(src)*8/5, maxLen) + decodeSlack; cap(dst)-start < want {
		dst = slices.Grow(dst, want)
	}
	// limit is one past the last byte we may write.
	limit := cap(dst)
	if maxLen < limit-start {
		limit = start + maxLen
	}
	out := dst[:limit]

	o, pos := start, uint(0)
	if len(src) >= 16 {
		var err error
		if o, pos, err = decodeHuffmanRounds(out, start, src, 0); err != nil {
			return dst[:start], err
		}
	}
	if rest := src[pos>>3:]; len(rest) < 16 {
		end := uint(len(rest))*8 - pos&7 // bits left in the input
		// A symbol per 5 bits, one running past the end, and fastRoom.
		if limit-o >= int(end/5)+1+fastRoom {
			o, q, err := decodeHuffmanTail(out, o, src, len(rest), pos&7)
			if err = tailEnd(err, end, q); err != nil {
				return dst[:start], err
			}
			return dst[:o], nil
		}
	}
	return appendHuffmanCareful(dst, out, start, o, src, pos, maxLen)
}

// decodeHuffmanRounds decodes src from bit pos into out at o while 8 bytes
// of input and fastRoom of room remain, and returns the output position and
// the bit position reached, a symbol boundary; a whole EOS stops it with
// ErrEOS.
//
// SAFETY: q and p are out's and src's bases plus o and i. A round loads 8
// bytes at p only while p <= src+lastI and lastI <= len(src)-8, and the
// room bound on lastI keeps its stores (2 bytes at up to q+4) below
// len(out). Steps load 8 bytes at p+4k for k < budget and store 2 at q+2k,
// and budget <= (len(src)-8-i)/4+1 with len(src)-8-i >= 0, and <=
// (len(out)-fastRoom-o)/2+1, so they stay in src and out too. Guarded by
// TestHuffmanDecodeStepsStayInInput, TestHuffmanDecodeAtGuard,
// TestDecoderAtGuard, TestHuffmanDecodeLimitWritesNothingPast,
// TestHuffmanDecodeTwins and FuzzHuffmanTwins.
func decodeHuffmanRounds(out []byte, o int, src []byte, pos uint) (int, uint, error) {
	var buf uint64 // unread bits, left-aligned; bits past nb hold input already read ahead
	var nb uint    // how many bits of buf are valid
	i := int(pos >> 3)
	if len(src)-i < 8 || len(out)-o < fastRoom {
		return o, pos, nil // pos may be mid-byte: keep it
	}
	// Load a first word, dropping the bits before pos.
	buf = binary.BigEndian.Uint64(src[i:]) << (pos & 7)
	i += 7
	nb = 56 - pos&7
	base, sp := unsafe.Pointer(unsafe.SliceData(out)), unsafe.Pointer(unsafe.SliceData(src))
	q, p := unsafe.Add(base, o), unsafe.Add(sp, i)
	for {
		// lastI is the last index a round may start at: 8 bytes of input
		// remain there, and the rounds up to it write at most room bytes.
		room := min(len(out)-fastRoom-o, 2*len(src))
		lastI := min(len(src)-8, i+(5*room-63)/8)
		if lastI < i {
			break // p+lastI-i would point outside src
		}
		var long bool
		q, p, nb, buf, long = decodeHuffmanFast(q, p, nb, buf, unsafe.Add(p, lastI-i))
		o, i = int(uintptr(q)-uintptr(base)), int(uintptr(p)-uintptr(sp))
		if !long {
			break
		}
		// A long code: go on one symbol per step (see SAFETY above).
		inLeft, roomLeft := len(src)-8-i, len(out)-fastRoom-o
		if inLeft < 0 || roomLeft < 0 {
			break // too little input or room left: the caller finishes
		}
		budget := min(inLeft/4, roomLeft/2, stepsBudget) + 1
		q, p, nb, buf = decodeHuffmanSteps(q, p, nb, buf, budget)
		o, i = int(uintptr(q)-uintptr(base)), int(uintptr(p)-uintptr(sp))
		if buf >= eosFirst {
			// Stalled on an EOS, which buf holds whole.
			return o, uint(i)*8 - nb, ErrEOS
		}
	}
	return o, uint(i)*8 - nb, nil
}

// decodeHuffmanFast runs rounds of three first-level lookups, writing at q
// and reading at p while p <= lastP, and reports whether it stopped at a
// long code, with 30 bits or more of input in buf to cover it.
//
// SAFETY: it loads 8 bytes at p only while p <= lastP, which the caller
// puts at least 8 bytes before src's end, and stores 2 bytes at up to q+4
// per round, for which the caller leaves room (see decodeHuffmanRounds).
// Guarded by TestHuffmanDecodeAtGuard, TestDecoderAtGuard and
// TestHuffmanDecodeTwins.
func decodeHuffmanFast(q, p unsafe.Pointer, nb uint, buf uint64, lastP unsafe.Pointer) (unsafe.Pointer, unsafe.Pointer, uint, uint64, bool) {
	fast := &huffdata.HuffmanDecodeFast
	for uintptr(p) <= uintptr(lastP) {
		r := binary.BigEndian.Uint64((*[8]byte)(p)[:]) >> (nb & 63) // shift hint: nb < 64
		p = unsafe.Add(p, (63-nb)>>3)
		nb |= 56
		e := fast[buf>>fastShift]
		if e&fastCountMask == 0 {
			return q, p, nb, buf | r, true
		}
		// Three lookups of at most 13 bits need no checks; a long code's
		// entry uses nothing, so it stalls the lookups after it.
		buf = (buf | r) << (e & fastUsedMask)
		nb -= uint(e) & fastUsedMask
		binary.LittleEndian.PutUint16((*[2]byte)(q)[:], uint16(e>>huffdata.HuffmanFastSym1Shift))
		q = unsafe.Add(q, e>>huffdata.HuffmanFastCountShift&3)
		e = fast[buf>>fastShift]
		buf <<= uint(e) & fastUsedMask
		nb -= uint(e) & fastUsedMask
		binary.LittleEndian.PutUint16((*[2]byte)(q)[:], uint16(e>>huffdata.HuffmanFastSym1Shift))
		q = unsafe.Add(q, e>>huffdata.HuffmanFastCountShift&3)
		e = fast[buf>>fastShift]
		buf <<= uint(e) & fastUsedMask
		nb -= uint(e) & fastUsedMask
		binary.LittleEndian.PutUint16((*[2]byte)(q)[:], uint16(e>>huffdata.HuffmanFastSym1Shift))
		q = unsafe.Add(q, e>>huffdata.HuffmanFastCountShift&3)
		if e&fastCountMask == 0 {
			return q, p, nb, buf, true
		}
	}
	return q, p, nb, buf, false
}

// decodeHuffmanSteps decodes budget steps of one symbol (two where a
// first-level entry holds two), looking up every table and selecting with
// masks, without branching on code length. At EOS it stalls, consuming
// nothing. buf must hold at least 30 bits of input.
//
// SAFETY: budget steps load 8 bytes at p+4k and store 2 at q+2k, k <
// budget; the caller sizes budget to both buffers (see
// decodeHuffmanRounds). Guarded by TestHuffmanDecodeStepsStayInInput,
// TestHuffmanDecodeAtGuard and FuzzHuffmanTwins.
func decodeHuffmanSteps(q, p unsafe.Pointer, nb uint, buf uint64, budget int) (unsafe.Pointer, unsafe.Pointer, uint, uint64) {
	fast, mid, high := &huffdata.HuffmanDecodeFast, &huffdata.HuffmanDecodeMid, &huffdata.HuffmanDecodeHigh
	for {
		full := buf | binary.BigEndian.Uint64((*[8]byte)(p)[:])>>(nb&63) // shift hint: nb < 64
		p = unsafe.Add(p, (63-nb)>>3)
		nb |= 56
		// The masks select the table that holds the code: the first-level
		// entry is zero for a long code, the mid table's for a high one.
		_, short := bits.Sub64(buf, longFirst, 0)
		_, notHigh := bits.Sub64(buf, highFirst, 0)
		isLong := uint32(short) - 1
		isHigh := uint32(notHigh) - 1
		e := fast[buf>>fastShift] |
			uint32(mid[buf>>midShift&midMask])&isLong |
			uint32(high[buf>>highShift&highMask])&isHigh
		binary.LittleEndian.PutUint16((*[2]byte)(q)[:], uint16(e>>huffdata.HuffmanFastSym1Shift))
		q = unsafe.Add(q, e>>huffdata.HuffmanFastCountShift&3)
		buf = full << (e & fastUsedMask)
		nb -= uint(e) & fastUsedMask
		budget--
		if budget <= 0 {
			return q, p, nb, buf
		}
	}
}

// tailEnd judges where decodeHuffmanTail found the EOS that ends its
// input, at bit q of end bits, given its error: the EOS must start in the
// input's last 7 bits, which are then padding (all ones, as EOS is).
func tailEnd(err error, end, q uint) error {
	if err != nil || end-q <= 7 { // q past end wraps around
		return err
	}
	if q > end {
		return ErrPadding // the last code runs past the input
	}
	if end-q >= MaxCodeBits {
		return ErrEOS // a whole EOS inside the input
	}
	return ErrPadding
}

// tailRoundBits is the most bits a round of three lookups consumes.
const tailRoundBits = 3 * huffdata.HuffmanFastBits

// decodeHuffmanTail decodes the last n (under 16) bytes of src, less their
// first skip bits and followed by ones, into out at o, and returns the
// output position and the bit position where the EOS that the ones make
// starts, for tailEnd to judge the padding.
//
// SAFETY: the input is read through bounds-checked slices; only the stores
// go through w, which starts at out+o. Every code before the EOS but the
// last lies within the input's bits and takes 5 or more, so w stays within
// a byte per 5 bits plus 1 of out+o, and a round stores under fastRoom
// bytes past w: the room the caller must leave. Guarded by
// TestHuffmanDecodeAtGuard, TestHuffmanDecodeLimitWritesNothingPast,
// TestHuffmanDecodeDocumentedRoom, TestHuffmanDecodeTwins and
// FuzzHuffmanTwins.
func decodeHuffmanTail(out []byte, o int, src []byte, n int, skip uint) (int, uint, error) {
	const ones = math.MaxUint64
	// The bytes go left-aligned into hi:lo through overlapping loads.
	hi, lo := uint64(ones), uint64(ones)
	switch m := len(src); {
	case n >= 8:
		hi = binary.BigEndian.Uint64(src[m-n:])
		lo = binary.BigEndian.Uint64(src[m-8:])<<(8*uint(16-n)) | ones>>(8*uint(n-8))
	case m >= 8:
		hi = binary.BigEndian.Uint64(src[m-8:])<<(8*uint(8-n)) | ones>>(8*uint(n))
	case n >= 4:
		hi = uint64(binary.BigEndian.Uint32(src[m-n:]))<<32 |
			uint64(binary.BigEndian.Uint32(src[m-4:]))<<(64-8*uint(n)) | ones>>(8*uint(n))
	case n > 0:
		t := src[m-n:]
		hi = uint64(t[0])<<56 | uint64(t[n/2])<<(56-8*uint(n/2)) | uint64(t[n-1])<<(56-8*uint(n-1)) |
			ones>>(8*uint(n))
	}
	if skip > 0 {
		hi = hi<<skip | lo>>(64-skip)
		lo = lo<<skip | ones>>(64-skip)
	}
	fast := &huffdata.HuffmanDecodeFast
	buf, nb := hi, uint(64) // lo is the input after buf
	loaded := uint(64)      // bits moved into buf so far
	w := unsafe.Add(unsafe.Pointer(unsafe.SliceData(out)), o)
	for {
		if nb < tailRoundBits {
			buf |= lo >> (nb & 63)
			lo = lo<<((64-nb)&63) | ones>>(nb&63)
			loaded += 64 - nb
			nb = 64
		}
		e := fast[buf>>fastShift]
		if e&fastCountMask == 0 {
			if ^buf>>(64-MaxCodeBits) == 0 {
				// EOS (30 ones): the end of every input here.
				return int(uintptr(w) - uintptr(unsafe.Pointer(unsafe.SliceData(out)))), loaded - nb, nil
			}
			e = decodeLong(buf)
			*(*byte)(w) = byte(e >> huffdata.HuffmanFastSym1Shift)
			w = unsafe.Add(w, 1)
			buf <<= uint(e) & fastUsedMask
			nb -= uint(e) & fastUsedMask
			continue
		}
		buf <<= uint(e) & fastUsedMask
		nb -= uint(e) & fastUsedMask
		binary.LittleEndian.PutUint16((*[2]byte)(w)[:], uint16(e>>huffdata.HuffmanFastSym1Shift))
		w = unsafe.Add(w, e>>huffdata.HuffmanFastCountShift&3)
		e = fast[buf>>fastShift]
		buf <<= uint(e) & fastUsedMask
		nb -= uint(e) & fastUsedMask
		binary.LittleEndian.PutUint16((*[2]byte)(w)[:], uint16(e>>huffdata.HuffmanFastSym1Shift))
		w = unsafe.Add(w, e>>huffdata.HuffmanFastCountShift&3)
		e = fast[buf>>fastShift]
		buf <<= uint(e) & fastUsedMask
		nb -= uint(e) & fastUsedMask
		binary.LittleEndian.PutUint16((*[2]byte)(w)[:], uint16(e>>huffdata.HuffmanFastSym1Shift))
		w = unsafe.Add(w, e>>huffdata.HuffmanFastCountShift&3)
	}
}
