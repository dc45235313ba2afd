package hpack

// Never-indexed literals are sent in full every time: a bearer token in
// every gRPC request is Huffman-coded again and again. litCache keeps the
// encoded form of the last few long ones, so a repeat costs a compare and
// a copy instead.
const (
	litCacheSlots  = 4
	litCacheMinLen = 48   // shorter values are cheap to encode
	litCacheMaxLen = 4096 // bounds the cache's memory
)

type litCacheSlot struct {
	raw []byte // the value
	enc []byte // its HPACK string: length prefix and (Huffman) bytes
}

// litCache replaces its slots in turn. Its buffers grow to the longest
// value seen and are reused, so in steady state it does not allocate. It
// memoizes a pure function, so Reset keeps it.
type litCache struct {
	slots [litCacheSlots]litCacheSlot
	next  uint8
}

// appendString appends s as an HPACK string, from the cache when s is
// there, and caches it otherwise.
func (c *litCache) appendString(dst []byte, s string) []byte {
	for i := range c.slots {
		if string(c.slots[i].raw) == s {
			return append(dst, c.slots[i].enc...)
		}
	}
	start := len(dst)
	dst = appendString(dst, s)
	slot := &c.slots[c.next%litCacheSlots]
	c.next++
	slot.raw = append(slot.raw[:0], s...)
	slot.enc = append(slot.enc[:0], dst[start:]...)
	return dst
}

// cacheable reports whether a never-indexed value of n bytes goes through
// the cache.
func cacheable(n int) bool { return n >= litCacheMinLen && n <= litCacheMaxLen }
