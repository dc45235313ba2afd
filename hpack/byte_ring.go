package hpack

// byteRing holds the strings of a dynamic table, the decoder's or the
// encoder's, in an array twice the table's largest size. Every entry's
// bytes are one contiguous chunk, placed after the newest chunk or, when
// they do not fit before the end, at offset 0. Entries are evicted before
// a chunk is placed, so the live bytes plus the new chunk never exceed the
// table's size; with an array twice that size the new chunk then never
// overlaps a live one.
type byteRing struct {
	bytes []byte // the ring, len 2*the largest table size
	head  uint32 // where the next chunk goes if it fits
}

// place reserves n contiguous bytes for a new chunk and returns their
// offset. The caller has already evicted to make room.
func (r *byteRing) place(n uint32) uint32 {
	if r.head+n > uint32(len(r.bytes)) {
		r.head = 0
	}
	off := r.head
	r.head += n
	return off
}
