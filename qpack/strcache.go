package qpack

import "github.com/metapack/metapack/internal/indexpolicy"

// strCache maps recent strings to what they code to: values to their
// string literals in the Encoder, Huffman-coded literals to their decoding
// in the Decoder, so that a repeat skips the Huffman coder. Sections
// without a dynamic table repeat most of their values, section after
// section. It is direct-mapped by hash, and a string takes a slot the
// second time it misses (remember), so that strings seen once do not push
// out the ones that repeat. Each slot's key and value sit one
// after the other in a byte ring, which starts small, doubles while it is
// under strCacheBudget, and then overwrites its oldest bytes; a slot whose
// bytes were overwritten misses. So a connection's cache costs a few
// allocations however many strings it stores, and its memory is bounded.
type strCache struct {
	slots [strCacheSlots]strSlot
	ring  []byte // a power of two long, or nil before the first store
	// wrote counts the bytes placed in the ring since it was made or grew,
	// and the ones skipped at its end: byte k of that count is at
	// ring[k%len(ring)], and the last len(ring) are the ring's.
	wrote uint64
	// seen holds tags of the hashes of strings that missed once, for
	// remember.
	seen [strSeenSlots]uint32
}

// strSlot is one cached string: its key and value at ring count start
// (see wrote), and the high half of its hash. store keeps a key and value
// to strCacheBudget/4 bytes together, so their lengths fit 16 bits.
type strSlot struct {
	start      uint64
	tag        uint32
	klen, vlen uint16
}

const (
	strCacheSlots = 256
	strSeenSlots  = 256
	// Shorter strings cost less to code than to look up: values the
	// Encoder Huffman-codes, and the Decoder's Huffman-coded strings,
	// whose decoding costs more. (6 for the Encoder too measured the same
	// instructions, and took a table's connections 5 KiB more.)
	strCacheMinEncode = 12
	strCacheMinDecode = 6
	strCacheMax       = 1024 // longer ones are rare, and would crowd the ring
	// strCacheFirst is the ring's first length, and strCacheBudget its
	// largest: the memory its bytes hold, per connection.
	strCacheFirst  = 4 << 10
	strCacheBudget = 16 << 10
)

// A slot's lengths are 16 bits wide: store's bound must fit them.
var _ [1<<16 - strCacheBudget/4]struct{}

// cacheable reports whether a string of n bytes goes through the cache,
// for a codec that caches strings of at least least bytes.
func cacheable(n, least int) bool { return n >= least && n <= strCacheMax }

// live reports whether slot s holds a key and value that are still in the
// ring.
func (c *strCache) live(s *strSlot) bool {
	return s.klen > 0 && c.wrote-s.start <= uint64(len(c.ring))
}

// lookup returns the slot for key, whose hash comes back too, and whether
// it holds key.
func lookup[T string | []byte](c *strCache, key T) (*strSlot, uint64, bool) {
	h := indexpolicy.ValueHash(key)
	s := &c.slots[h%strCacheSlots]
	if s.tag != uint32(h>>32) || int(s.klen) != len(key) || !c.live(s) {
		return s, h, false
	}
	off := s.start & uint64(len(c.ring)-1)
	return s, h, string(c.ring[off:off+uint64(s.klen)]) == string(key)
}

// value returns what slot s, which lookup found, maps its key to.
func (c *strCache) value(s *strSlot) []byte {
	off := s.start&uint64(len(c.ring)-1) + uint64(s.klen)
	return c.ring[off : off+uint64(s.vlen) : off+uint64(s.vlen)]
}

// store puts key, of hash h, and value in slot s, unless together they
// are too long for the ring.
func store[T string | []byte](c *strCache, s *strSlot, h uint64, key T, value []byte) {
	n := uint64(len(key)) + uint64(len(value))
	if len(key) == 0 || n > strCacheBudget/4 {
		return
	}
	s.klen = 0 // until its bytes are in place
	off := c.wrote & uint64(len(c.ring)-1)
	if c.ring == nil || off+n > uint64(len(c.ring)) {
		if len(c.ring) < strCacheBudget {
			for c.grow(); c.wrote+n > uint64(len(c.ring)); {
				c.grow()
			}
			off = c.wrote
		} else {
			c.wrote += uint64(len(c.ring)) - off // skip the ring's end
			off = 0
		}
	}
	copy(c.ring[off:], key)
	copy(c.ring[off+uint64(len(key)):], value)
	*s = strSlot{start: c.wrote, tag: uint32(h >> 32), klen: uint16(len(key)), vlen: uint16(len(value))}
	c.wrote += n
}

// grow makes the ring twice as long, or strCacheFirst, and moves the
// slots' bytes to its start. A ring under the budget grows rather than
// wrap, so all the slots' bytes are still in it.
func (c *strCache) grow() {
	ring := make([]byte, max(2*len(c.ring), strCacheFirst))
	var wrote uint64
	for i := range c.slots {
		s := &c.slots[i]
		if s.klen == 0 {
			continue
		}
		n := uint64(s.klen) + uint64(s.vlen)
		off := s.start & uint64(len(c.ring)-1)
		copy(ring[wrote:], c.ring[off:off+n])
		s.start = wrote
		wrote += n
	}
	c.ring, c.wrote = ring, wrote
}

// remember stores key, of hash h, and value in slot s, as store does, the
// second time key misses in a while: a string seen once, such as a path
// or a request ID, would take the slot and ring bytes of one that
// repeats.
func remember[T string | []byte](c *strCache, s *strSlot, h uint64, key T, value []byte) {
	i, tag := (h>>32)%strSeenSlots, uint32(h)|1 // other bits than the slot's
	if c.seen[i] != tag {
		c.seen[i] = tag
		return
	}
	store(c, s, h, key, value)
}
