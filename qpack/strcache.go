package qpack

import "github.com/metapack/metapack/internal/indexpolicy"

// strCache maps recent strings to what they code to: values to their
// string literals in the Encoder, Huffman-coded literals to their decoding
// in the Decoder, so that a repeat skips the Huffman coder. Sections
// without a dynamic table repeat most of their values, section after
// section. It is direct-mapped by hash, and its memory is bounded.
type strCache struct {
	slots [strCacheSlots]strSlot
	held  int // the slots' capacity, keys and values
}

type strSlot struct {
	hash       uint64
	key, value []byte
}

const (
	strCacheSlots = 64
	strCacheMin   = 12   // shorter strings cost less to code than to look up
	strCacheMax   = 1024 // longer ones are rare, and would crowd the budget
	// strCacheBudget bounds the memory the slots hold, per connection.
	strCacheBudget = 32 << 10
)

// cacheable reports whether a string of n bytes goes through the cache.
func cacheable(n int) bool { return n >= strCacheMin && n <= strCacheMax }

// lookup returns the slot for key, whose hash comes back too, and whether
// it holds key.
func lookup[T string | []byte](c *strCache, key T) (*strSlot, uint64, bool) {
	h := indexpolicy.ValueHash(key)
	s := &c.slots[h%strCacheSlots]
	return s, h, s.hash == h && string(s.key) == string(key)
}

// store puts key, of hash h, and value in slot s, unless that would take
// the cache over its budget.
func store[T string | []byte](c *strCache, s *strSlot, h uint64, key T, value []byte) {
	before := cap(s.key) + cap(s.value)
	if grow := max(len(key)-cap(s.key), 0) + max(len(value)-cap(s.value), 0); grow > 0 && c.held+grow > strCacheBudget {
		return
	}
	s.hash = h
	s.key = append(s.key[:0], key...)
	s.value = append(s.value[:0], value...)
	c.held += cap(s.key) + cap(s.value) - before
}
