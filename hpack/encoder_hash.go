package hpack

import (
	"github.com/cespare/xxhash/v2"

	sd "github.com/metapack/metapack/staticdata"
)

// strHash returns the hash the encoder's table keys a string by: an
// atom's precomputed hash, or the same hash (unseeded XXH64) of the bytes,
// so that a string finds its entries whether it comes as an atom or as
// bytes. Names are nearly always atoms: a batch turns every well-known
// name into one, and a Decoder interns the rest.
func strHash(a *sd.Atom, s string) uint64 {
	if a != nil {
		return a.Hash()
	}
	return bytesHash(s)
}

// bytesHash is strHash of a string that is not an atom. Out of line, so
// that strHash stays small enough to inline.
//
//go:noinline
func bytesHash(s string) uint64 { return xxhash.Sum64String(s) }
