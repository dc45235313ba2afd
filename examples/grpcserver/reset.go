package main

// maxRememberedResets is how many of the streams we reset a connection
// remembers. Frames on them are ignored (RFC 9113 §5.1); frames on an
// older reset stream are treated as on any closed stream.
const maxRememberedResets = 1024

// resetSet remembers the IDs of the streams we closed with RST_STREAM, the
// most recent maxRememberedResets of them, so that the frames the peer
// sent before it saw our RST_STREAM are ignored rather than answered.
type resetSet struct {
	ids  map[uint32]struct{}
	ring [maxRememberedResets]uint32
	n    int // IDs added so far
}

func (r *resetSet) add(id uint32) {
	if r.ids == nil {
		r.ids = make(map[uint32]struct{})
	}
	if _, ok := r.ids[id]; ok {
		return
	}
	slot := &r.ring[r.n%maxRememberedResets]
	if r.n >= maxRememberedResets {
		delete(r.ids, *slot)
	}
	*slot = id
	r.n++
	r.ids[id] = struct{}{}
}

func (r *resetSet) has(id uint32) bool {
	_, ok := r.ids[id]
	return ok
}
