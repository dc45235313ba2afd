package hpack

import (
	"encoding/binary"
	"math/rand/v2"

	"github.com/metapack/metapack/mdelem"
)

// The bounds of a Decoder's string cache: strings up to 4 KiB, at most
// 32 KiB of them.
const (
	strCacheSlots  = 256
	strCacheMaxLen = 4096
	strCacheBudget = 32 << 10
)

// strCache hands out the strings of decoded names that are not atoms,
// reusing the string made for the same bytes before. It is direct-mapped
// on a hash with a seed of its own, so a peer cannot aim strings at one
// slot; a new string replaces the old one in its slot, unless it would
// take the cache over its budget.
type strCache struct {
	seed  uint64 // odd, random per cache
	bytes int    // the total length of the cached strings
	slots [strCacheSlots]string
}

func newStrCache() *strCache {
	return &strCache{seed: rand.Uint64() | 1}
}

// slot returns b's slot: a hash of its length and of its first and last
// eight bytes (fewer when it is shorter), keyed by the cache's seed;
// strings that share those share a slot, which costs a miss, never a
// wrong string.
func (c *strCache) slot(b []byte) uint64 {
	var lo, hi uint64
	switch n := len(b); {
	case n >= 8:
		lo, hi = binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[n-8:])
	case n >= 4:
		lo, hi = uint64(binary.LittleEndian.Uint32(b)), uint64(binary.LittleEndian.Uint32(b[n-4:]))
	case n > 0:
		lo, hi = uint64(b[0]), uint64(b[n-1])<<8|uint64(b[n/2])
	}
	h := (lo^c.seed)*0x9E3779B97F4A7C15 ^ (hi+uint64(len(b)))*0xC2B2AE3D27D4EB4F
	h ^= h >> 29
	h *= c.seed
	return (h >> 32) % strCacheSlots
}

// bytesStr returns a string of s's bytes, cached or new.
func (c *strCache) bytesStr(s mdelem.Str) string {
	b := s.UnsafeBytes() // read here only, never kept
	if len(b) == 0 {
		return ""
	}
	if len(b) > strCacheMaxLen {
		return string(b)
	}
	slot := &c.slots[c.slot(b)]
	if *slot == string(b) {
		return *slot
	}
	clone := string(b)
	if grown := c.bytes - len(*slot) + len(clone); grown <= strCacheBudget {
		c.bytes, *slot = grown, clone
	}
	return clone
}

// nameString returns a string of name's bytes through d's string cache,
// made on first use.
func (d *Decoder) nameString(name mdelem.Str) string {
	if d.strings == nil {
		d.strings = newStrCache()
	}
	return d.strings.bytesStr(name)
}
