package qpack

import (
	"math"
	"sync"

	"github.com/metapack/metapack/internal/enctable"
	"github.com/metapack/metapack/internal/indexpolicy"
)

// DefaultMaxTableCapacity is the dynamic table an Encoder uses at most
// unless SetMaxTableCapacityLimit says otherwise, and what a Decoder may
// advertise: the HTTP/2 default, which most peers' tables match.
const DefaultMaxTableCapacity = 4096

// maxTableCapacityLimit is the largest table an Encoder keeps.
const maxTableCapacityLimit = 1 << 30

// maxPending bounds the sections that refer to the dynamic table and
// await acknowledgment; past it, sections use the static table and
// literals until acknowledgments come, so a peer that never acknowledges
// cannot grow the Encoder's memory.
const maxPending = 1024

// Encoder encodes field sections for all the streams of one HTTP/3
// connection (RFC 9204), with a dynamic table as far as the peer's
// SETTINGS allow, and reads the peer's decoder stream. All its methods may
// be called concurrently; calls are serialized inside.
//
// It never refers to an entry the peer may have evicted, never evicts an
// entry that a section not yet acknowledged refers to (§2.1.1), and risks
// at most the peer's SETTINGS_QPACK_BLOCKED_STREAMS blocked streams. An
// exact match among the oldest entries, which block insertions until they
// can be evicted, is duplicated when there is room (§2.1.1.1).
//
// Indexing follows hpack's Encoder: fields that repeat are inserted, and
// fields that will not are sent as literals. It also learns from the
// table: an entry no section has used for a while may be evicted, so a
// connection whose fields change takes new entries; and names whose
// entries are evicted before any later section uses them are inserted
// less often, so a table too small for the traffic costs little more than
// the static table alone. Once a quarter of the peer's blocked streams
// are at risk, a section takes one more only if the entries not yet
// acknowledged would encode many of its bytes, so that a peer that
// acknowledges late, or never, leaves them to the sections that gain
// most. Sensitive fields
// (mdelem.Field.WithSensitive), authorization, proxy-authorization and
// cookies under 20 bytes are never inserted, and are sent with the N bit
// (§4.5.4), unless SetIndexCredentials allows credentials. Strings are
// Huffman-coded where that is shorter. In steady state it allocates
// nothing.
//
// A decoder-stream error leaves the Encoder unusable for the connection:
// AppendSection then sends no more dynamic references.
type Encoder struct {
	mu sync.Mutex

	table enctable.Table
	// peerMax and peerBlocked are the peer's SETTINGS; limit is ours. The
	// capacity used is min(peerMax, limit); sent is the last one the
	// encoder stream announced.
	peerMax, peerBlocked uint64
	limit                uint32
	target, sent         uint32
	maxEntries           uint64 // peerMax / 32, for the Required Insert Count

	inserts uint64 // entries inserted: the next one's absolute index
	known   uint64 // Known Received Count (§2.1.4)
	pending []pendingSection
	// blocking is how many pending sections may be blocked (Required
	// Insert Count above known).
	blocking uint64

	indexCreds bool
	policy     indexpolicy.Policy
	lits       *strCache  // made by the first value that uses it
	uses       []entryUse // per entry, by absolute index modulo its length
	sections   uint32     // sections encoded, modulo 2^32: the clock of entryUse.last
	unused     unusedNames
	budget     blockedBudget
	// drainEnd caches draining's edge for the table as it was at
	// drainInserts inserts and capacity drainMax, for an edge at
	// 1/drainFrac of the capacity.
	drainEnd, drainInserts uint64
	drainMax, drainFrac    uint32

	// The decoder stream: bytes consumed, and a split instruction.
	dsOff   int64
	partial [16]byte
	npart   int
	err     error
}

// pendingSection is a section not yet acknowledged that refers to the
// dynamic table.
type pendingSection struct {
	stream   uint64
	required uint64
	minRef   uint64 // the oldest entry it refers to
}

// NewEncoder returns an Encoder that uses only the static table until
// SetPeerSettings gives it the peer's table capacity.
func NewEncoder() *Encoder {
	return &Encoder{limit: DefaultMaxTableCapacity}
}

// SetPeerSettings records the peer's SETTINGS_QPACK_MAX_TABLE_CAPACITY and
// SETTINGS_QPACK_BLOCKED_STREAMS, which arrive once, in its SETTINGS frame.
// The next section's encoder-stream bytes set the table's capacity to the
// lower of maxTableCapacity and the limit.
func (e *Encoder) SetPeerSettings(maxTableCapacity, maxBlockedStreams uint64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.peerMax = min(maxTableCapacity, math.MaxUint32)
	e.maxEntries = e.peerMax / entryOverhead
	e.peerBlocked = maxBlockedStreams
	e.applyCapacity()
}

// SetMaxTableCapacityLimit caps the dynamic table at v bytes (at most
// 1 GiB), whatever the peer allows; DefaultMaxTableCapacity by default.
// Its memory grows with what it holds, not with the limit. Lowered after
// the table is in use, it shrinks once the entries over it are evictable.
func (e *Encoder) SetMaxTableCapacityLimit(v uint32) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.limit = min(v, maxTableCapacityLimit)
	e.applyCapacity()
}

func (e *Encoder) applyCapacity() {
	e.target = uint32(min(e.peerMax, uint64(e.limit)))
}

// SetIndexCredentials chooses how the encoder sends authorization and
// proxy-authorization fields: off (the default), as never-indexed
// literals in every section; on, inserted when first sent. Turn it on only
// when every field comes from one principal, such as a client's
// connection to its server: an attacker who can add fields and see
// section lengths can test guesses of an indexed value (RFC 9204 §7.1).
// Sensitive fields are never indexed either way.
func (e *Encoder) SetIndexCredentials(on bool) {
	e.mu.Lock()
	e.indexCreds = on
	e.mu.Unlock()
}

// InsertCount returns the number of entries inserted so far.
func (e *Encoder) InsertCount() uint64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.inserts
}

// TableSize returns the dynamic table's size and capacity in RFC 9204
// terms.
func (e *Encoder) TableSize() (size, capacity uint64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return uint64(e.table.Size()), uint64(e.table.Max())
}

// DynamicEntry returns the entry of absolute index abs, and ok false when
// it is absent or evicted.
func (e *Encoder) DynamicEntry(abs uint64) (name, value string, ok bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if abs >= e.inserts || e.inserts-1-abs >= uint64(e.table.Count()) {
		return "", "", false
	}
	name, value = e.table.Strings(e.table.At(uint32(e.inserts - 1 - abs)))
	return name, value, true
}
