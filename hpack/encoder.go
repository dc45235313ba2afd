package hpack

import (
	"math"

	"github.com/metapack/metapack/mdelem"
	sd "github.com/metapack/metapack/staticdata"
)

// Encoder encodes header lists into HPACK header blocks (RFC 7541). It
// keeps the dynamic table that the peer's decoder mirrors, so one Encoder
// serves one direction of one connection. It is not safe for concurrent
// use.
//
// In steady state it allocates nothing: the table's buffers are sized once
// for the table size limit, strings that are not atoms are copied into a
// byte ring, and lookups go through a hash index that is updated in place.
// Names that are atoms (static or interned) are never hashed: their hash
// and static index come with them. A value's hash reads at most 24 of its
// bytes (see valueHash).
//
// Fields marked Sensitive (mdelem.Field.WithSensitive) are sent as
// never-indexed literals (RFC 7541 §6.2.3). For the others, the encoder's
// index policy picks the representation. It sends as never-indexed
// literals authorization, proxy-authorization and cookies under 20 bytes. It does not index a
// field larger than 3/4 of the table. For any other field that is in no
// table it learns, per name, whether values repeat:
//   - a field seen recently (its hash is in a small fixed-size filter of
//     fields sent without indexing) is indexed: its second sighting;
//   - a new value is indexed at once when its name's values have tended to
//     repeat (a per-name score, raised by table and filter hits, lowered
//     by new values), and otherwise sent without indexing, so that values
//     that never repeat (request IDs, dates, trace contexts) do not evict
//     the ones that do;
//   - except that a field whose name is in no table is indexed, so that
//     later fields can refer to the name.
//
// The zero Encoder is usable, and indexes nothing: its limit and the
// peer's setting are 0 until SetMaxDynamicTableSizeLimit and
// SetMaxDynamicTableSize raise them. Use NewEncoder.
type Encoder struct {
	table encTable
	// peerMax is the peer's SETTINGS_HEADER_TABLE_SIZE and limit our own
	// cap; the table's maximum is the lower of the two.
	peerMax, limit uint32
	// sentMax is the maximum the peer's decoder has been told (or assumes,
	// before any update): the last size update sent, initially peerMax.
	sentMax uint32
	// minMax is the lowest maximum since the last block; the next block
	// must announce it when it is below sentMax (RFC 7541 §4.2).
	minMax        uint32
	updatePending bool

	policy indexPolicy
	// indexCreds is set by SetIndexCredentials.
	indexCreds bool
	seen       seenFilter
	names      nameScores
	lits       litCache

	// safe makes the Encoder Huffman-code with appendHuffmanStringSafe,
	// the pure-Go twin, whatever the build: the differential tests set it
	// (see encoder_twin.go) to compare the two on whole blocks.
	safe bool
}

// NewEncoder returns an Encoder for a peer whose SETTINGS_HEADER_TABLE_SIZE
// is peerTableSize (DefaultTableSize until its SETTINGS say otherwise). It
// uses at most DefaultTableSize bytes of dynamic table unless
// SetMaxDynamicTableSizeLimit raises that. An HTTP/2 peer's decoder starts
// with a table of DefaultTableSize (RFC 9113 §6.5.2) whatever it advertises, so
// when the size the encoder uses differs from that, its first block starts
// with a size update saying so (RFC 7541 §4.2).
func NewEncoder(peerTableSize uint32) *Encoder {
	e := &Encoder{peerMax: peerTableSize, limit: DefaultTableSize}
	e.Reset()
	return e
}

// Reset returns the Encoder to the state of a new Encoder with the current
// settings and policy, as for a new connection: the dynamic table is empty,
// and the peer's decoder is assumed to start at its advertised size. It
// does not allocate.
func (e *Encoder) Reset() {
	e.table.reset()
	e.resetPolicy()
	m := min(e.peerMax, e.limit)
	e.table.setMax(m)
	// The peer's decoder starts at HTTP/2's initial table size, not at
	// its setting: a size update must bring it to m.
	e.sentMax = DefaultTableSize
	e.minMax = m
	e.updatePending = m != DefaultTableSize
}

// SetMaxDynamicTableSize records the peer's new SETTINGS_HEADER_TABLE_SIZE.
// The table's maximum becomes min(v, limit) (0: no dynamic table, as the
// peer then allows none); entries are evicted at once,
// and the next block starts with the size updates RFC 7541 §4.2 requires.
// When the maximum went below both the one the peer knows and the final
// one since the last block, that is two updates: the first is 0, not the
// lowest maximum reached, and the table is emptied, because x/net's
// decoder (through v0.62) rejects a second update unless the first left
// its table empty; 0 is the lowest maximum the encoder then reached. The
// second is the final maximum.
func (e *Encoder) SetMaxDynamicTableSize(v uint32) {
	e.peerMax = v
	e.applyMax()
}

// SetMaxDynamicTableSizeLimit caps the dynamic table at v bytes whatever
// the peer allows (DefaultTableSize by default), as x/net's method of that
// name does. 0 means no dynamic table at all. Values above 1 GiB are taken
// as 1 GiB: an encoder may always use less than its peer allows. The
// table's memory grows with what it holds, not with the limit.
func (e *Encoder) SetMaxDynamicTableSizeLimit(v uint32) {
	e.limit = min(v, maxTableSizeLimit)
	e.applyMax()
}

// maxTableSizeLimit is the largest dynamic table an Encoder keeps, whatever
// SetMaxDynamicTableSizeLimit asks for.
const maxTableSizeLimit = 1 << 30

// applyMax makes min(peerMax, limit) the table's maximum.
func (e *Encoder) applyMax() {
	m := min(e.peerMax, e.limit)
	if m == e.table.max {
		return
	}
	e.table.setMax(m)
	e.minMax = min(e.minMax, m)
	e.updatePending = true
}

// SetIndexCredentials chooses how the encoder sends authorization and
// proxy-authorization fields. Off, the default, they are never-indexed
// literals (RFC 7541 §6.2.3): a credential is sent whole in every block,
// and no dynamic table holds it. On, each is indexed when first sent, as
// other fields can be, and a block that repeats it sends its index.
//
// Turn it on only for a connection that carries one principal's
// requests, such as a client's connection to its server, where the
// token repeats on every request. RFC 7541 §7.1 explains the risk it
// takes: an attacker who can add header fields of its own to the same
// compression context, and observe the length of the blocks, can test
// guesses of an indexed value one at a time. On a connection whose
// fields all come from one principal, no such attacker shares the
// context. A field marked Sensitive is never-indexed either way.
func (e *Encoder) SetIndexCredentials(on bool) { e.indexCreds = on }

// setIndexPolicy replaces the index policy, for the tests; nil restores
// the default (see Encoder). Fields marked Sensitive are never-indexed
// whatever the policy says.
func (e *Encoder) setIndexPolicy(p indexPolicy) { e.policy = p }

// DynamicTableSize returns the dynamic table's size and maximum size in
// RFC 7541 terms, as the peer's decoder will have them after the next
// block's size updates.
func (e *Encoder) DynamicTableSize() (size, max uint32) { return e.table.size, e.table.max }

// DynamicTableLen returns the number of dynamic table entries.
func (e *Encoder) DynamicTableLen() int { return int(e.table.count) }

// DynamicEntry returns dynamic table entry i (0 is the newest), and ok
// false, with empty strings, when i is not below DynamicTableLen. It
// copies the strings that are not atoms; it is meant for tests and
// inspection.
func (e *Encoder) DynamicEntry(i int) (name, value string, ok bool) {
	if i < 0 || i >= int(e.table.count) {
		return "", "", false
	}
	ent := e.table.at(uint32(i))
	return e.table.str(ent.name), e.table.str(ent.value), true
}

// AppendBlock appends the header block of b's fields to dst and returns
// the extended buffer: first any pending size updates, then one
// representation per field, in order. A nil b is an empty list. With room
// in dst (a reused buffer) it does not allocate.
func (e *Encoder) AppendBlock(dst []byte, b *mdelem.Batch) []byte {
	if e.updatePending {
		dst = e.appendSizeUpdates(dst)
	}
	if b == nil {
		return dst
	}
	for i := range b.Len() {
		f := b.At(i)
		dst = e.appendField(dst, &f)
	}
	return dst
}

// AppendField appends one field's representation to dst. A block made of
// several calls gets any pending size updates before its first field, as
// long as the settings do not change in between. A name given as bytes is
// looked up in the static tier, as Batch.Append does, so that a field
// encodes as it would through AppendBlock. A field that is not valid (see
// mdelem.Str.IsValid: a part that holds no string, such as the zero
// intern.Handle or a nil atom) is dropped, as Batch.Append drops it: dst
// comes back as it was.
func (e *Encoder) AppendField(dst []byte, f mdelem.Field) []byte {
	if !f.Name.IsValid() || !f.Value.IsValid() {
		return dst
	}
	if e.updatePending {
		dst = e.appendSizeUpdates(dst)
	}
	if f.Name.Atom() == nil {
		if a := sd.Lookup(f.Name.UnsafeBytes()); a != nil {
			f = mdelem.Field{Name: mdelem.StrOf(a), Value: f.Value}.WithSensitive(f.Sensitive())
		}
	}
	return e.appendField(dst, &f)
}

// appendSizeUpdates appends the size updates that a block must start with
// after the maximum changed (RFC 7541 §4.2): the lowest maximum reached,
// when the table shrank below what the peer knows and grew again, then the
// current one.
//
// x/net's decoder (through v0.62 at least) rejects a second update unless
// the first left its table empty. So when entries would survive the lowest
// size, the encoder lowers its maximum to 0 for that moment instead,
// emptying both tables, and signals 0: the smallest maximum it reached.
func (e *Encoder) appendSizeUpdates(dst []byte) []byte {
	low := e.minMax
	if low < e.sentMax && low < e.table.max {
		// x/net's decoder (v0.62) accepts a second size update only when
		// the first one emptied its table. Peers running it are common, so
		// when entries would survive the lowest size we empty the table and
		// send 0 instead: still RFC 7541 §4.2-conformant, at the cost of the
		// entries, and only when the peer lowered and raised its setting
		// between two blocks.
		if e.table.size > 0 {
			e.table.evictTo(0)
			low = 0
		}
		dst = appendInt(dst, reprSizeUpdate, 5, uint64(low))
	}
	if low < e.sentMax || e.table.max != e.sentMax {
		dst = appendInt(dst, reprSizeUpdate, 5, uint64(e.table.max))
	}
	e.sentMax = e.table.max
	e.minMax = math.MaxUint32
	e.updatePending = false
	return dst
}
