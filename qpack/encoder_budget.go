package qpack

import (
	"github.com/metapack/metapack/internal/enctable"
	"github.com/metapack/metapack/internal/indexpolicy"
	"github.com/metapack/metapack/internal/tabledef"
	"github.com/metapack/metapack/mdelem"
)

// blockedBudget chooses which sections take the peer's blocked streams
// (SETTINGS_QPACK_BLOCKED_STREAMS) when few are left. A stream that may
// block stays counted until the peer acknowledges what it refers to, so a
// peer that acknowledges late, or never, gives the connection a fixed
// number of sections that can use entries it has not acknowledged: spent
// on the first sections, they are gone before the ones that would gain
// most. Once a quarter are taken, a section takes one only if what it
// gains is at least the largest recent gain times the share taken.
type blockedBudget struct {
	// top is the largest gain of the sections that asked, decaying by
	// 1/budgetDecay a section, in units of 1/256 byte.
	top uint64
}

const (
	// budgetFree is the share of the blocked streams, 1/budgetFree, that
	// the first sections take without asking.
	budgetFree = 4
	// budgetDecay sets how fast the largest gain is forgotten.
	budgetDecay = 256
	// maxGain caps a section's gain, in bytes, so that the products in
	// spend stay within 64 bits.
	maxGain = 1 << 32
)

// takesBlocked reports whether a section of b's fields may risk blocking
// its stream: while the peer allows more blocked streams, at once for the
// first quarter of them, then when spend says so.
func (e *Encoder) takesBlocked(b *mdelem.Batch) bool {
	allowed := min(e.peerBlocked, maxPending) // blocking never exceeds maxPending
	if e.blocking >= allowed {
		return false
	}
	if e.blocking*budgetFree < allowed {
		return true
	}
	return e.budget.spend(e.blockGain(b), e.blocking, allowed)
}

// spend reports whether a section that gains gain bytes by referring to
// entries the peer has not acknowledged should risk blocking, with taken
// of the allowed streams at risk.
func (bb *blockedBudget) spend(gain, taken, allowed uint64) bool {
	g := min(gain, maxGain) << 8
	bb.top = max(bb.top-bb.top/budgetDecay, g)
	return g*allowed >= bb.top*taken
}

// blockGain returns the bytes of the names and values of b's fields that
// entries the peer has not acknowledged would encode: what risking a
// blocked stream buys the section.
func (e *Encoder) blockGain(b *mdelem.Batch) uint64 {
	gain := uint64(0)
	if b == nil || e.table.Count() == 0 || e.inserts == e.known {
		return 0
	}
	for i := range b.Len() {
		f := b.At(i)
		if !f.Name.IsValid() || !f.Value.IsValid() || f.Sensitive() {
			continue
		}
		// As field builds it (a shared helper does not inline there, and
		// cost field 3.6% more instructions).
		var v enctable.Field
		v.NameAtom, v.ValueAtom = f.Name.Atom(), f.Value.Atom()
		v.Name, v.Value = f.Name.UnsafeString(), f.Value.UnsafeString()
		nh := indexpolicy.StrHash(v.NameAtom, v.Name)
		if age, ok := e.table.FindField(tabledef.PairHash(nh, indexpolicy.ValueHash(v.Value)), &v); ok {
			if e.unacknowledged(age) {
				gain += uint64(len(v.Name) + len(v.Value))
			}
			continue
		}
		if age, ok := e.table.FindName(nh, &v); ok && e.unacknowledged(age) {
			gain += uint64(len(v.Name))
		}
	}
	return gain
}

// unacknowledged reports whether the entry of age age (0 the newest) is
// one the peer has not acknowledged.
func (e *Encoder) unacknowledged(age uint32) bool { return e.inserts-1-uint64(age) >= e.known }
