package hpack

import "github.com/metapack/metapack/staticdata"

// indexing is the representation chosen for a field.
type indexing uint8

// indexIncremental and indexNone send an index when the field is in a
// table already; indexNever sends the literal even then.
const (
	indexDefault     indexing = iota // the Encoder's default policy
	indexIncremental                 // RFC 7541 §6.2.1: the peer adds it
	indexNone                        // §6.2.2: without indexing
	indexNever                       // §6.2.3: never indexed, by intermediaries either
)

// minIndexedCookie is the shortest cookie value that the default policy
// may index: shorter ones are easy to guess one at a time, which a
// compression oracle could confirm (RFC 7541 §7.1.3).
const minIndexedCookie = 20

// neverIndexed reports whether the default policy sends a field with name
// key and a value of vlen bytes as a never-indexed literal: credentials,
// and cookies short enough to guess.
func neverIndexed(key staticdata.KeyID, vlen int) bool {
	switch key {
	case staticdata.KeyAuthorization, staticdata.KeyProxyAuthorization:
		return true
	case staticdata.KeyCookie:
		return vlen < minIndexedCookie
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

// hashTag returns a tag for h: its high half, never 0 (an empty slot).
func hashTag(h uint64) uint32 { return uint32(h>>32) | 1 }

// seen reports whether ph is in the filter, and records it.
func (s *seenFilter) seen(ph uint64) bool {
	set := (*[2]uint32)(s.tags[ph%(seenSlots/2)*2:])
	tag := hashTag(ph)
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
}

// slot returns the score of the name with hash nh.
func (s *nameScores) slot(nh uint64) *int8 {
	i := nh % nameSlots
	if tag := hashTag(nh); s.tags[i] != tag {
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

// defaultIndexing is the default policy for a field in no table;
// haveName tells whether its name is in one.
func (e *Encoder) defaultIndexing(v *fieldView, nh, ph uint64, haveName bool) indexing {
	size := uint64(len(v.name)) + uint64(len(v.value)) + entryOverhead
	switch {
	case size > uint64(e.table.max)*3/4:
		return indexNone
	case e.seen.seen(ph):
		e.names.repeat(nh)
		return indexIncremental
	case e.names.fresh(nh):
		// A new value of a name whose values tend to repeat.
		return indexIncremental
	case !haveName:
		// Index the name, so that later fields can refer to it.
		return indexIncremental
	}
	return indexNone
}

// credentialIndexing is the policy for a credential under
// SetIndexCredentials: indexed at once, since it repeats on every request
// of the connection, unless it is too big for the table.
func (e *Encoder) credentialIndexing(v *fieldView) indexing {
	if uint64(len(v.name))+uint64(len(v.value))+entryOverhead > uint64(e.table.max)*3/4 {
		return indexNone
	}
	return indexIncremental
}

// resetPolicy forgets what the default policy learned.
func (e *Encoder) resetPolicy() {
	e.seen = seenFilter{}
	e.names = nameScores{}
}
