package hpack

import (
	"unsafe"

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
	return xxhash.Sum64(unsafe.Slice(unsafe.StringData(s), len(s)))
}
