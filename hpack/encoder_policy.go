package hpack

import (
	"github.com/metapack/metapack/internal/enctable"
	"github.com/metapack/metapack/internal/indexpolicy"
)

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

// defaultIndexing is the default policy for a field in no table;
// haveName tells whether its name is in one.
func (e *Encoder) defaultIndexing(v *enctable.Field, nh, ph uint64, haveName bool) indexing {
	size := uint64(len(v.Name)) + uint64(len(v.Value)) + entryOverhead
	if e.policy.Indexes(size, uint64(e.table.Max()), nh, ph, haveName, true) {
		return indexIncremental
	}
	return indexNone
}

// credentialIndexing is the policy for a credential under
// SetIndexCredentials.
func (e *Encoder) credentialIndexing(v *enctable.Field) indexing {
	if indexpolicy.IndexesCredential(uint64(len(v.Name))+uint64(len(v.Value))+entryOverhead, uint64(e.table.Max())) {
		return indexIncremental
	}
	return indexNone
}

// resetPolicy forgets what the default policy learned.
func (e *Encoder) resetPolicy() { e.policy = indexpolicy.Policy{} }
