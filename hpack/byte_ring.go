package hpack

import "math"

// byteRing holds the strings of a dynamic table, the decoder's or the
// encoder's, in an array twice its capacity. Every entry's bytes are one
// contiguous chunk, placed after the newest chunk or, when they do not fit
// before the end, at offset 0. Entries are evicted before a chunk is
// placed, and the table grows the ring (repacking its chunks from offset
// 0) before its size, which bounds the live bytes, plus the new chunk
// would exceed the capacity;
// with an array twice that size the new chunk then never overlaps a live
// one. The ring starts empty and grows with what the table holds, never
// with what its maximum would allow.
type byteRing struct {
	bytes []byte // the ring, 2*capacity bytes
	head  int    // where the next chunk goes if it fits
}

// ringCapacity is the most live bytes, new chunk included, the ring holds
// without growing.
func (r *byteRing) ringCapacity() int { return len(r.bytes) / 2 }

// place reserves n contiguous bytes for a new chunk and returns their
// offset. The caller has already evicted, and grown the ring, to make
// room.
func (r *byteRing) place(n int) int {
	if r.head+n > len(r.bytes) {
		r.head = 0
	}
	off := r.head
	r.head += n
	return off
}

// nextRingCapacity returns the capacity to grow a ring of capacity c to
// when it must hold need bytes, for a table whose maximum size is
// tableMax: double, from initialRingCapacity, but no more than tableMax
// allows, and at least need. It stays below half the largest int, so that the ring's
// length is an int; on 32-bit systems a table holding more than that
// could not be allocated anyway.
func nextRingCapacity(c, need int, tableMax uint32) int {
	return min(max(min(max(2*c, initialRingCapacity), sizeInt(tableMax)), need), math.MaxInt/2)
}

// initialRingCapacity is the first capacity of a ring: HTTP/2's initial
// table size, which most connections keep, so that their tables grow once
// (a few allocations, as many as a table gets) rather than once per
// doubling. A larger table still grows only with what it holds.
const initialRingCapacity = 4096

// sizeInt converts a table size to an int, saturating where int is 32 bits.
func sizeInt(v uint32) int {
	if uint64(v) > math.MaxInt {
		return math.MaxInt
	}
	return int(v)
}
