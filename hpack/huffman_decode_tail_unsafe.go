//go:build !purego

package hpack

import (
	"encoding/binary"
	"math"
	"unsafe"

	"github.com/metapack/metapack/internal/huffdata"
)

// The end of a Huffman string for the fast decoder: its last bytes, under
// 16, decoded from registers with ones after them.

// tailEnd judges where decodeHuffmanTail found the EOS that ends its
// input, at bit q of end bits, given its error: the EOS must start in the
// input's last 7 bits, which are then padding (all ones, as EOS is).
func tailEnd(err error, end, q uint) error {
	if err != nil || end-q <= 7 { // q past end wraps around
		return err
	}
	if q > end {
		return errHuffmanPadding // the last code runs past the input
	}
	if end-q >= maxCodeBits {
		return errHuffmanEOS // a whole EOS inside the input
	}
	return errHuffmanPadding
}

// tailRoundBits is the most bits a round of three first-level lookups
// consumes: decodeHuffmanTail refills below it.
const tailRoundBits = 3 * huffdata.HuffmanFastBits

// decodeHuffmanTail decodes the last n (under 16) bytes of src, after
// their first skip bits and followed by ones, into out at o until it meets
// an EOS, and returns the new output position and the bit position, from
// the bits it was given, where the EOS starts. Ones decode to nothing
// shorter than EOS (every code of HuffmanFastBits or less has a zero in
// it), so an input whose bits are followed by ones ends in EOS where its
// padding starts; the caller judges the padding from that position. out
// must have room for a byte per 5 bits before the EOS, plus 1+fastRoom.
//
// SAFETY: the input is read through bounds-checked slices; only the stores
// go through w, which starts at out+o. Every code before the EOS but the
// last lies within the input's bits and takes 5 or more, so w stays
// within a byte per 5 bits plus 1 of out+o, and a round stores under
// fastRoom bytes past w: the room the caller must leave. Guarded by
// TestHuffmanDecodeAtGuard, TestHuffmanDecodeLimitWritesNothingPast,
// TestHuffmanDecodeDocumentedRoom, TestHuffmanDecodeTwins and
// FuzzHuffmanTwins.
func decodeHuffmanTail(out []byte, o int, src []byte, n int, skip uint) (int, uint, error) {
	const ones = math.MaxUint64
	// The bytes go into a 128-bit value hi:lo, left-aligned after
	// dropping the first skip bits, with ones after them. Whole-word
	// loads read them, overlapping where the bytes are fewer than the
	// loads: a copy to a buffer and word loads from it would stall on
	// store forwarding, and a loop over the bytes costs more. They are
	// here rather than in a function of their own, whose call cost every
	// string more than the loads.
	hi, lo := uint64(ones), uint64(ones)
	switch m := len(src); {
	case n >= 8:
		// Shifts of 64 give zero in Go, which is what n == 8 wants.
		hi = binary.BigEndian.Uint64(src[m-n:])
		lo = binary.BigEndian.Uint64(src[m-8:])<<(8*uint(16-n)) | ones>>(8*uint(n-8))
	case m >= 8:
		hi = binary.BigEndian.Uint64(src[m-8:])<<(8*uint(8-n)) | ones>>(8*uint(n))
	case n >= 4:
		// Two 4-byte loads, overlapping unless n is 8: where they overlap
		// they hold the same bytes at the same places.
		hi = uint64(binary.BigEndian.Uint32(src[m-n:]))<<32 |
			uint64(binary.BigEndian.Uint32(src[m-4:]))<<(64-8*uint(n)) | ones>>(8*uint(n))
	case n > 0:
		// The first, middle and last of 1 to 3 bytes: all of them.
		t := src[m-n:]
		hi = uint64(t[0])<<56 | uint64(t[n/2])<<(56-8*uint(n/2)) | uint64(t[n-1])<<(56-8*uint(n-1)) |
			ones>>(8*uint(n))
	}
	if skip > 0 {
		hi = hi<<skip | lo>>(64-skip)
		lo = lo<<skip | ones>>(64-skip)
	}
	fast := &huffdata.HuffmanDecodeFast
	buf, nb := hi, uint(64) // as in decodeHuffmanRounds; lo is the input after buf
	// loaded counts the bits moved into buf so far: the bits consumed
	// are loaded-nb, which saves the loop a count of its own.
	loaded := uint(64)
	// The rounds write through a pointer, as decodeHuffmanFast does: an
	// offset and a window, with masks for their bounds checks, kept the
	// loop short of registers. (For the same reason the return takes
	// out's base afresh.)
	w := unsafe.Add(unsafe.Pointer(unsafe.SliceData(out)), o)
	for {
		if nb < tailRoundBits {
			// Refill from lo, and refill lo with ones: nb is under
			// tailRoundBits, and a round left at least 64-tailRoundBits.
			buf |= lo >> (nb & 63)
			lo = lo<<((64-nb)&63) | ones>>(nb&63)
			loaded += 64 - nb
			nb = 64
		}
		e := fast[buf>>fastShift]
		if e&fastCountMask == 0 {
			if ^buf>>(64-maxCodeBits) == 0 {
				// EOS, found from buf alone (30 ones): the end of every
				// input here, where a lookup would only add to the wait.
				// A shift, not a compare with eosFirst, which would keep
				// the constant in a register for the whole loop.
				return int(uintptr(w) - uintptr(unsafe.Pointer(unsafe.SliceData(out)))), loaded - nb, nil
			}
			// A long code's byte is in bounds as the rounds' stores are
			// (see below).
			e = decodeLong(buf)
			*(*byte)(w) = byte(e >> huffdata.HuffmanFastSym1Shift)
			w = unsafe.Add(w, 1)
			buf <<= uint(e) & fastUsedMask
			nb -= uint(e) & fastUsedMask
			continue
		}
		// As in decodeHuffmanRounds: three lookups with no checks, and
		// stores with no bounds checks. They are in bounds: every code
		// before the EOS but the last lies within the input's bits and
		// takes 5 or more, so w stays within a byte per 5 input bits plus
		// 1 of where it started, and a round stores under fastRoom bytes
		// past it, which the room the caller leaves covers.
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
