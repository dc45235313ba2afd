package hpack

import (
	"hash/maphash"
	"strings"

	"github.com/metapack/metapack/mdelem"
)

// strCacheSlots, strCacheMaxLen and strCacheBudget bound a Decoder's
// string cache: strings up to 4 KiB (the default dynamic table's size),
// and at most 32 KiB of them kept alive per Decoder.
const (
	strCacheSlots  = 256
	strCacheMaxLen = 4096
	strCacheBudget = 32 << 10
)

// strCache hands out the strings of decoded fields that are not atoms,
// reusing the string made for the same bytes before: a value the peer
// sends again, from its dynamic table or as a literal, costs no
// allocation. It is direct-mapped on a hash with a seed of its own, so a
// peer cannot aim strings at one slot; a new string replaces the old one
// in its slot, unless it would take the cache over its budget. It belongs
// to one Decoder.
type strCache struct {
	seed  maphash.Seed
	bytes int // the total length of the cached strings
	slots [strCacheSlots]string
}

func newStrCache() *strCache { return &strCache{seed: maphash.MakeSeed()} }

// str returns s as a string: an atom's own string, or a cached or new
// copy of its bytes.
func (c *strCache) str(s mdelem.Str) string {
	if a := s.Atom(); a != nil {
		return a.String()
	}
	v := s.UnsafeString() // read here only, never kept
	if len(v) == 0 {
		return ""
	}
	if len(v) > strCacheMaxLen {
		return strings.Clone(v)
	}
	slot := &c.slots[maphash.String(c.seed, v)%strCacheSlots]
	if *slot == v {
		return *slot
	}
	clone := strings.Clone(v)
	if grown := c.bytes - len(*slot) + len(clone); grown <= strCacheBudget {
		c.bytes, *slot = grown, clone
	}
	return clone
}
