package qpack

import "github.com/metapack/metapack/internal/indexpolicy"

// unusedNames remembers, per name, how many of its entries in a row were
// evicted before any later section referred to them, so that the Encoder
// stops inserting fields of a name whose entries do not survive until
// they are used: in a table too small for how often the name's values
// recur, each insert costs its bytes on the encoder stream for nothing.
// Such a name is still tried now and then, less often the more its
// entries went unused, so that it is inserted again when its use changes.
type unusedNames struct {
	slots [unusedSlots]unusedSlot
}

type unusedSlot struct {
	tag    uint32 // the name's hash tag, or 0 for none
	misses uint8  // its entries evicted unused, in a row
	skips  uint8  // inserts refused since the last tried
}

const (
	unusedSlots = 64
	// unusedFree is how many entries of a name may go unused in a row
	// before its inserts are refused.
	unusedFree = 2
	// unusedMaxBackoff caps the refusals between two tries at
	// 1<<unusedMaxBackoff.
	unusedMaxBackoff = 4
)

func (u *unusedNames) slot(tag uint32) *unusedSlot { return &u.slots[tag%unusedSlots] }

// evictedUnused records that an entry of the name of hash tag tag was
// evicted before a later section used it.
func (u *unusedNames) evictedUnused(tag uint32) {
	s := u.slot(tag)
	if s.tag != tag {
		*s = unusedSlot{tag: tag}
	}
	s.misses = min(s.misses+1, unusedFree+unusedMaxBackoff-1)
}

// used records that a later section referred to an entry of the name of
// hash tag tag.
func (u *unusedNames) used(tag uint32) {
	if s := u.slot(tag); s.tag == tag {
		s.misses, s.skips = 0, 0
	}
}

// mayInsert reports whether a field of the name of hash nh may be
// inserted, and counts a refusal.
func (u *unusedNames) mayInsert(nh uint64) bool {
	tag := indexpolicy.HashTag(nh)
	s := u.slot(tag)
	if s.tag != tag || s.misses < unusedFree {
		return true
	}
	if s.skips++; s.skips < 1<<(s.misses-unusedFree+1) {
		return false
	}
	s.skips = 0
	return true
}
