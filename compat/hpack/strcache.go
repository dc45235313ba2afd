package hpack

import (
	"hash/maphash"
	"strings"

	"github.com/metapack/metapack/mdelem"
)

// strCacheSlots and strCacheMaxLen bound a Decoder's string cache: at
// most 16 KiB of strings kept alive per Decoder.
const (
	strCacheSlots  = 128
	strCacheMaxLen = 128
)

// strCache hands out the strings of decoded fields that are not atoms,
// reusing the string made for the same bytes before: a value the peer
// sends again, from its dynamic table or as a literal, costs no
// allocation. It is direct-mapped on a hash with a seed of its own, so a
// peer cannot aim strings at one slot; a new string replaces the old one
// in its slot. It belongs to one Decoder.
type strCache struct {
	seed  maphash.Seed
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
	*slot = strings.Clone(v)
	return *slot
}
