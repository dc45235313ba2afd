// Package indexpolicy is the encoders' default indexing policy, HPACK's
// and QPACK's: which fields to add to the dynamic table, learned from what
// repeats, and which never to add.
package indexpolicy

import "github.com/metapack/metapack/staticdata"

// MinIndexedCookie is the shortest cookie value that the default policy
// may index: shorter ones are easy to guess one at a time, which a
// compression oracle could confirm (RFC 7541 §7.1.3).
const MinIndexedCookie = 20

// NeverIndexed reports whether the default policy sends a field with name
// key and a value of vlen bytes as a never-indexed literal: credentials,
// and cookies short enough to guess.
func NeverIndexed(key staticdata.KeyID, vlen int) bool {
	switch key {
	case staticdata.KeyAuthorization, staticdata.KeyProxyAuthorization:
		return true
	case staticdata.KeyCookie:
		return vlen < MinIndexedCookie
	}
	return false
}

// seenSlots is the size of the seen filter: a small one compresses better,
// as a value last seen long ago is unlikely to repeat before eviction.
const seenSlots = 192

// seenFilter remembers the pair hashes of fields recently sent without
// indexing, in sets of two tags, newer first, so that the default policy
// can index a field on its second sighting.
type seenFilter struct {
	tags [seenSlots]uint32
}

// HashTag returns a tag for h: its high half, never 0 (an empty slot).
func HashTag(h uint64) uint32 { return uint32(h>>32) | 1 }

// seenFilter reports whether ph is in the filter, and records it.
func (s *seenFilter) seen(ph uint64) bool {
	set := (*[2]uint32)(s.tags[ph%(seenSlots/2)*2:])
	tag := HashTag(ph)
	if set[0] == tag {
		return true
	}
	hit := set[1] == tag
	set[1], set[0] = set[0], tag
	return hit
}

// nameSlots is the size of the table of per-name repeat scores.
const nameSlots = 256

// maxNameScore bounds a name's score either way, so that a name whose
// values change character is re-learned within a few fields.
const maxNameScore = 8

// nameScores learns, per name, whether values tend to repeat: a repeat
// raises the name's score, a first sighting lowers it.
type nameScores struct {
	tags  [nameSlots]uint32
	score [nameSlots]int8
	last  [nameSlots]uint16 // the clock of each name's last RecentName
	clock uint16            // the calls of RecentName, modulo 2^16
}

// slot returns the score of the name with hash nh.
func (s *nameScores) slot(nh uint64) *int8 {
	i := nh % nameSlots
	if tag := HashTag(nh); s.tags[i] != tag {
		s.tags[i], s.score[i] = tag, 0
	}
	return &s.score[i]
}

// repeat records a value of the name that was sent before.
func (s *nameScores) repeat(nh uint64) {
	if p := s.slot(nh); *p < maxNameScore {
		*p++
	}
}

// fresh records a value of the name seen for the first time, and reports
// whether the name's values have tended to repeat until now.
func (s *nameScores) fresh(nh uint64) bool {
	p := s.slot(nh)
	repeats := *p >= 0
	if *p > -maxNameScore {
		*p--
	}
	return repeats
}

// Policy is an encoder's default policy for fields in no table: what it
// learned of the fields sent so far. The zero Policy is ready.
type Policy struct {
	seen  seenFilter
	names nameScores
}

// Indexes reports whether a field of RFC 7541 size size, whose name and
// pair hashes are nh and ph, goes into a table of maximum tableMax:
// haveName tells whether its name is in a table already. It learns from
// the call. A field is indexed on its second sighting; when eager is set,
// also at once if its name is in no table or its values have tended to
// repeat (eager suits an encoder that can refer to an entry in the block
// that inserts it, as HPACK's always can).
func (p *Policy) Indexes(size, tableMax uint64, nh, ph uint64, haveName, eager bool) bool {
	switch {
	case !fits(size, tableMax):
		return false
	case p.seen.seen(ph):
		p.names.repeat(nh)
		return true
	case !eager:
		p.names.fresh(nh)
		return false
	case p.names.fresh(nh):
		// A new value of a name whose values tend to repeat.
		return true
	}
	// Index the name, so that later fields can refer to it.
	return !haveName
}

// IndexesSteady is Indexes without eager, except that it also indexes a
// field on its first sighting when all of its name's recent values
// repeated, for an encoder whose table evicts nothing yet: what enters
// first stays, and a new value of such a name will likely recur. It
// learns from the call as Indexes does.
func (p *Policy) IndexesSteady(size, tableMax uint64, nh, ph uint64) bool {
	switch {
	case !fits(size, tableMax):
		return false
	case p.seen.seen(ph):
		p.names.repeat(nh)
		return true
	}
	steady := *p.names.slot(nh) == maxNameScore
	p.names.fresh(nh)
	return steady
}

// Repeat records a field found in a table, whose name hash is nh.
func (p *Policy) Repeat(nh uint64) { p.names.repeat(nh) }

// IndexesCredential reports whether a credential of size size goes into
// a table of maximum tableMax, when the encoder may index credentials:
// at once, since it repeats on every request of the connection, unless
// it is too big for the table.
func IndexesCredential(size, tableMax uint64) bool { return fits(size, tableMax) }

// fits reports whether a field of size size may be indexed in a table of
// maximum tableMax: one larger than 3/4 of it would evict most of what the
// table holds.
func fits(size, tableMax uint64) bool { return size <= tableMax*3/4 }

// RecentName reports whether RecentName was called for the name of hash
// nh within its last within calls, and records this call: an encoder
// calls it once per field whose name it might insert on its own, to learn
// whether the name recurs soon enough for such an entry to survive until
// it is used. The calls are counted modulo 65,536, so within must be at
// most 32,768, and a name last seen some multiple of 65,536 calls ago may
// count as recent.
func (p *Policy) RecentName(nh uint64, within uint64) bool {
	s := &p.names
	i := nh % nameSlots
	tag := HashTag(nh)
	recent := s.tags[i] == tag && uint64(s.clock-s.last[i]) < within
	if s.tags[i] != tag {
		s.tags[i], s.score[i] = tag, 0
	}
	s.clock++
	s.last[i] = s.clock
	return recent
}
