package hpack

import (
	"github.com/metapack/metapack/internal/enctable"
	"github.com/metapack/metapack/internal/indexpolicy"
	"math"

	"github.com/metapack/metapack/internal/hcode"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// Encoder encodes header lists into HPACK header blocks (RFC 7541), for
// one direction of one connection. It is not safe for concurrent use. In
// steady state it does not allocate.
//
// Sensitive fields (mdelem.Field.WithSensitive), authorization,
// proxy-authorization and cookies under 20 bytes are sent never-indexed
// (RFC 7541 §6.2.3). A field larger than 3/4 of the table is not indexed.
// Other new fields are indexed on their second sighting, or at once when
// their name is in no table or its values have tended to repeat, so that
// values that never repeat do not evict the ones that do.
//
// The zero Encoder indexes nothing until its limits are raised; use
// NewEncoder.
type Encoder struct {
	table enctable.Table
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

	// indexCreds is set by SetIndexCredentials.
	indexCreds bool
	policy     indexpolicy.Policy
	lits       litCache
}

// NewEncoder returns an Encoder for a peer whose SETTINGS_HEADER_TABLE_SIZE
// is peerTableSize (DefaultTableSize until its SETTINGS say otherwise). It
// uses at most DefaultTableSize bytes of dynamic table unless
// SetMaxDynamicTableSizeLimit raises that.
func NewEncoder(peerTableSize uint32) *Encoder {
	e := &Encoder{peerMax: peerTableSize, limit: DefaultTableSize}
	e.Reset()
	return e
}

// Reset returns the Encoder to a new Encoder's state with the current
// settings and policy, as for a new connection. It does not allocate.
func (e *Encoder) Reset() {
	e.table.Reset()
	e.resetPolicy()
	m := min(e.peerMax, e.limit)
	e.table.SetMax(m)
	// The peer's decoder starts at HTTP/2's initial table size, not at
	// its setting: a size update must bring it to m.
	e.sentMax = DefaultTableSize
	e.minMax = m
	e.updatePending = m != DefaultTableSize
}

// SetMaxDynamicTableSize records the peer's new SETTINGS_HEADER_TABLE_SIZE.
// The table's maximum becomes min(v, limit) at once, and the next block
// starts with the size updates RFC 7541 §4.2 requires. (After a fall and a
// rise there are two, and the table is emptied: x/net rejects a second
// update unless the first emptied its table.)
func (e *Encoder) SetMaxDynamicTableSize(v uint32) {
	e.peerMax = v
	e.applyMax()
}

// SetMaxDynamicTableSizeLimit caps the dynamic table at v bytes, at most
// 1 GiB, whatever the peer allows (DefaultTableSize by default), as x/net's
// method does. Its memory grows with what it holds, not with the limit.
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
	if m == e.table.Max() {
		return
	}
	e.table.SetMax(m)
	e.minMax = min(e.minMax, m)
	e.updatePending = true
}

// SetIndexCredentials chooses how the encoder sends authorization and
// proxy-authorization fields: off (the default), as never-indexed literals
// in every block; on, indexed when first sent. Turn it on only when every
// field comes from one principal, such as a client's connection to its
// server: an attacker who can add fields and see block lengths can test
// guesses of an indexed value (RFC 7541 §7.1). Sensitive fields are
// never-indexed either way.
func (e *Encoder) SetIndexCredentials(on bool) { e.indexCreds = on }

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
		dst = e.appendField(dst, &f, indexDefault)
	}
	return dst
}

// AppendField appends one field's representation to dst, preceded by any
// pending size updates, and encodes it as AppendBlock would. A field that
// is not valid (a part that holds no string, such as the zero
// intern.Handle or a nil atom) is dropped, as Batch.Append drops it: dst
// comes back as it was.
func (e *Encoder) AppendField(dst []byte, f mdelem.Field) []byte {
	return e.appendOne(dst, f, indexDefault)
}

// appendOne is AppendField with the indexing decision how.
func (e *Encoder) appendOne(dst []byte, f mdelem.Field, how indexing) []byte {
	if !f.Name.IsValid() || !f.Value.IsValid() {
		return dst
	}
	if e.updatePending {
		dst = e.appendSizeUpdates(dst)
	}
	if f.Name.Atom() == nil {
		if a := staticdata.Lookup(f.Name.UnsafeBytes()); a != nil {
			f = mdelem.Field{Name: mdelem.StrOf(a), Value: f.Value}.WithSensitive(f.Sensitive())
		}
	}
	return e.appendField(dst, &f, how)
}

// appendSizeUpdates appends the size updates that a block must start with
// after the maximum changed (RFC 7541 §4.2): the lowest maximum reached,
// when the table shrank below what the peer knows and grew again, then the
// current one.
func (e *Encoder) appendSizeUpdates(dst []byte) []byte {
	low := e.minMax
	if low < e.sentMax && low < e.table.Max() {
		// x/net's decoder accepts a second size update only when the
		// first emptied its table: empty it, and send 0.
		if e.table.Size() > 0 {
			e.table.EvictTo(0)
			low = 0
		}
		dst = hcode.AppendInt(dst, 5, reprSizeUpdate, uint64(low))
	}
	if low < e.sentMax || e.table.Max() != e.sentMax {
		dst = hcode.AppendInt(dst, 5, reprSizeUpdate, uint64(e.table.Max()))
	}
	e.sentMax = e.table.Max()
	e.minMax = math.MaxUint32
	e.updatePending = false
	return dst
}
