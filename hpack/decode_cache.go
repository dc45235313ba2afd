package hpack

import (
	"encoding/binary"

	"github.com/metapack/metapack/staticdata"
)

// atomCacheSlots is the size of a decoder's string cache.
const atomCacheSlots = 64

// atomCache remembers what a short Huffman-coded name or interned value
// decodes to, an atom or bytes, so that a repeat skips decoding and
// lookup. It is direct-mapped, and belongs to one decoder.
type atomCache struct {
	slots [atomCacheSlots]atomSlot
}

type atomSlot struct {
	lo, hi uint64 // the raw bytes, as packed by cacheKey
	n      uint32 // their length; 0 marks an empty slot
	dn     uint8  // the length of dec, when atom is nil
	atom   *staticdata.Atom
	dec    [maxCachedDecoded]byte // the decoded bytes, when atom is nil
}

const (
	maxCachedLen     = 16                   // the longest raw string held: two words
	maxCachedDecoded = maxCachedLen * 8 / 5 // what maxCachedLen bytes decode to at most
)

// cacheKey packs raw strings of 1 to 16 bytes into two words, through
// overlapping loads of the first and last bytes: with the length, they
// determine the bytes.
func cacheKey(raw []byte) (lo, hi uint64) {
	switch n := len(raw); {
	case n >= 8:
		return binary.LittleEndian.Uint64(raw), binary.LittleEndian.Uint64(raw[n-8:])
	case n >= 4:
		return uint64(binary.LittleEndian.Uint32(raw)) | uint64(binary.LittleEndian.Uint32(raw[n-4:]))<<32, 0
	case n > 0:
		return uint64(raw[0]) | uint64(raw[n/2])<<8 | uint64(raw[n-1])<<16, 0
	}
	return 0, 0
}

func cacheSlot(lo, hi uint64, n int) uint64 {
	h := (lo*0x9E3779B97F4A7C15 ^ hi*0xC2B2AE3D27D4EB4F) + uint64(n)
	return (h >> 58) % atomCacheSlots
}

// lookup returns the slot holding raw, or nil. A nil cache holds nothing.
func (c *atomCache) lookup(raw []byte) *atomSlot {
	n := len(raw)
	if c == nil || n == 0 || n > maxCachedLen {
		return nil
	}
	lo, hi := cacheKey(raw)
	s := &c.slots[cacheSlot(lo, hi, n)]
	if s.n == uint32(n) && s.lo == lo && s.hi == hi {
		return s
	}
	return nil
}

// put records that raw decodes to a.
func (c *atomCache) put(raw []byte, a *staticdata.Atom) {
	if s := c.slotFor(raw); s != nil {
		s.atom, s.dn = a, 0
	}
}

// putBytes records that raw decodes to b, which is no atom; b is copied.
func (c *atomCache) putBytes(raw, b []byte) {
	if len(b) > maxCachedDecoded {
		return
	}
	if s := c.slotFor(raw); s != nil {
		s.atom, s.dn = nil, uint8(copy(s.dec[:], b))
	}
}

// slotFor claims raw's slot, keyed for raw, or returns nil when raw is not
// cached.
func (c *atomCache) slotFor(raw []byte) *atomSlot {
	n := len(raw)
	if n == 0 || n > maxCachedLen {
		return nil
	}
	lo, hi := cacheKey(raw)
	s := &c.slots[cacheSlot(lo, hi, n)]
	s.lo, s.hi, s.n = lo, hi, uint32(n)
	return s
}

// filledCache returns d's cache, making it if d has none yet.
func (d *Decoder) filledCache() *atomCache {
	if d.cache == nil {
		d.cache = new(atomCache)
	}
	return d.cache
}

// reset empties the cache, as when the interner changes. A nil cache, a
// new decoder's, has nothing to empty.
func (c *atomCache) reset() {
	if c != nil {
		*c = atomCache{}
	}
}
