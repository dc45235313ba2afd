package hpack

import (
	"github.com/metapack/metapack/internal/le"
	"math/bits"

	"github.com/cespare/xxhash/v2"
	"github.com/metapack/metapack/internal/tier"

	sd "github.com/metapack/metapack/staticdata"
)

// strHash returns the hash the encoder's table keys a string by: an
// atom's precomputed hash, or the same hash (unseeded XXH64) of the bytes,
// so that a string finds its entries whether it comes as an atom or as
// bytes. Names are nearly always atoms: a batch turns every well-known
// name into one, and a Decoder interns the rest.
func strHash(a *sd.Atom, s string) uint64 {
	if a != nil {
		return (*tier.Atom)(a).Hash()
	}
	return bytesHash(s)
}

// bytesHash is strHash of a string that is not an atom. Out of line, so
// that strHash stays small enough to inline.
//
//go:noinline
func bytesHash(s string) uint64 { return xxhash.Sum64String(s) }

// valueHash returns the hash a value takes in a field's pair hash. It reads
// every byte, 16 at a time, each 16 folded in with one 128-bit multiply
// (the last 16 overlapping the ones before): values are
// longer than names and mostly new, and XXH64, which names use, costs
// more per value. It is unseeded, so encoding stays deterministic; the
// table compares candidates in full and walks at most maxPairProbes of
// them (see findField), so values made to collide cost a few compares and
// maybe an index missed, never a wrong one.
func valueHash(s string) uint64 {
	n := len(s)
	h := uint64(n) * 0x9E3779B97F4A7C15
	if n > 16 {
		for i := 0; i < n-16; i += 16 {
			h = fold(h^le.Uint64(s[i:]), le.Uint64(s[i+8:]))
		}
		return fold(h^le.Uint64(s[n-16:]), le.Uint64(s[n-8:])) // overlaps the last fold
	}
	// Up to 16 bytes: two loads of the first and last bytes, overlapping
	// when fewer than 16 (of 8, 4 or single bytes).
	var a, b uint64
	switch {
	case n >= 8:
		a, b = le.Uint64(s), le.Uint64(s[n-8:])
	case n >= 4:
		a, b = uint64(le.Uint32(s[0:])), uint64(le.Uint32(s[n-4:]))
	case n > 0:
		a = uint64(s[0]) | uint64(s[n/2])<<8 | uint64(s[n-1])<<16
	}
	return fold(h^a, b)
}

// fold mixes x and y into one word: the two halves of the 128-bit product
// of x and y, each first offset by a constant, xored.
func fold(x, y uint64) uint64 {
	hi, lo := bits.Mul64(x^0xA0761D6478BD642F, y^0xE7037ED1A0B428DB)
	return hi ^ lo
}
