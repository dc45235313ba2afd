package hpack

import "github.com/cespare/xxhash/v2"

// Never-indexed literals are sent in full every time: a bearer token in
// every gRPC request is Huffman-coded again and again. litCache keeps the
// encoded form of the last few long ones, so a repeat costs a hash, a
// compare and a copy instead.
const (
	litCacheSlots  = 4
	litCacheMinLen = 48   // shorter values are cheap to encode
	litCacheMaxLen = 4096 // bounds the cache's memory
)

type litCacheSlot struct {
	hash uint64
	raw  []byte // the value
	enc  []byte // its HPACK string: length prefix and (Huffman) bytes
}

// litCache is direct-mapped by the value's hash. Its buffers grow to the
// longest value seen and are reused, so in steady state it does not
// allocate. It memoizes a pure function, so Reset keeps it.
type litCache struct {
	slots [litCacheSlots]litCacheSlot
}

// appendString appends s as an HPACK string, from the cache when s is
// there, and caches it otherwise.
func (c *litCache) appendString(dst []byte, s string) []byte {
	h := xxhash.Sum64String(s)
	slot := &c.slots[h%litCacheSlots]
	if slot.hash == h && string(slot.raw) == s {
		return append(dst, slot.enc...)
	}
	start := len(dst)
	dst = appendString(dst, s)
	slot.hash = h
	slot.raw = append(slot.raw[:0], s...)
	slot.enc = append(slot.enc[:0], dst[start:]...)
	return dst
}

// cacheable reports whether a never-indexed value of n bytes goes through
// the cache.
func cacheable(n int) bool { return n >= litCacheMinLen && n <= litCacheMaxLen }
