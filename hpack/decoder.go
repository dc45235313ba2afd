package hpack

import (
	"fmt"
	"github.com/metapack/metapack/internal/hcode"
	"math"

	"github.com/metapack/metapack/intern"
	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

const (
	// defaultMaxHeaderListSize is a Decoder's default header list limit,
	// counted as RFC 9113 does: name + value + 32 bytes per field. It
	// bounds each string too, so that any field that fits the list
	// decodes. 64 KiB is what a server's own decoder needs: browsers and
	// gRPC send lists of a few KiB, and it bounds what one hostile block
	// costs. (headerblock takes x/net's Framer's MaxHeaderListSize
	// instead, 16 MiB by default, since it reproduces x/net's outcomes.)
	defaultMaxHeaderListSize = 64 << 10
	// DefaultTableSize is HTTP/2's initial SETTINGS_HEADER_TABLE_SIZE.
	DefaultTableSize = 4096
)

// defaultMaxFields is a Decoder's default limit on fields per header list.
const defaultMaxFields = 256

// defaultInternedValues are the keys whose values a Decoder interns unless
// told otherwise: values with few distinct strings in practice.
var defaultInternedValues = [...]staticdata.KeyID{
	staticdata.KeyMethod, staticdata.KeyScheme, staticdata.KeyStatus, staticdata.KeyContentType, staticdata.KeyTe,
	staticdata.KeyGrpcEncoding, staticdata.KeyGrpcAcceptEncoding, staticdata.KeyAcceptEncoding,
	staticdata.KeyContentEncoding, staticdata.KeyGrpcStatus,
}

// Decoder decodes HPACK header blocks (RFC 7541) into mdelem batches. It
// keeps the dynamic table that mirrors the peer encoder's, so one Decoder
// serves one direction of one connection. It is not safe for concurrent
// use.
//
// Well-known names become atoms, and so do the values of a few
// low-cardinality keys; other strings are copied into the batch, unless
// SetInterner gives the decoder a table to intern them in. In steady state
// Decode allocates nothing.
//
// A decoding error (a *DecodingError, the COMPRESSION_ERROR class) leaves
// the Decoder unusable: every later call fails. Going over a limit (a
// *DecodingError for which IsStreamError is true) does not: the block is
// still decoded, so the dynamic table stays in sync; only the fields past
// the limit are dropped.
//
// The zero Decoder is NewDecoder(0): the default limits, and no dynamic
// table until SetAllowedMaxDynamicTableSize allows one.
type Decoder struct {
	table dynTable
	// settingsMax is the SETTINGS_HEADER_TABLE_SIZE we advertise.
	settingsMax uint32
	// updateRequired: the next block must start with an update of at most
	// lowestSettings.
	updateRequired bool
	lowestSettings uint32

	maxListSize, maxFields, maxStringLen int
	interner                             *intern.Table
	internValue                          [tier.NumKeys]bool

	err error // set by a decoding error; every later call fails with it

	// A dropped field's strings being skipped (see resumeSkip).
	skipLeft  int
	skipValue bool
	skipping  bool
	skipOff   int
	skipHuff  bool
	skipCheck hcode.Checker

	// discard is what a nil dst decodes into.
	discard *mdelem.Batch
	// fn takes the fields during a DecodeFragmentFunc call.
	fn func(mdelem.Field)
	keepSlab

	// made is set once NewDecoder's defaults are in place (see ready).
	made bool

	// State of the block being decoded.
	inBlock  bool
	blockOff int // block offset of the next byte to parse
	pending  []byte
	need     int // how many bytes pending must hold before parsing resumes
	sawField bool
	updates  int
	// fieldsLeft and sizeLeft are what the limits leave of the block's
	// field count and header list size; negative once one is gone over.
	fieldsLeft int
	sizeLeft   int
	limitErr   *DecodingError

	nameBuf, valueBuf []byte // Huffman output
	// cache is made by the first string put in it.
	cache *atomCache
}

// NewDecoder returns a Decoder for a connection on which we advertise
// SETTINGS_HEADER_TABLE_SIZE = tableSize (DefaultTableSize unless the
// connection's SETTINGS say otherwise), with the default limits. The table
// starts at the lower of tableSize and DefaultTableSize, which the peer
// assumes until it sends a size update (RFC 9113 §6.5.2).
func NewDecoder(tableSize uint32) *Decoder {
	d := &Decoder{settingsMax: tableSize}
	d.initTableMax()
	d.ready()
	return d
}

// ready gives a zero Decoder NewDecoder's defaults, once, before a setter
// or a block changes them.
func (d *Decoder) ready() {
	if d.made {
		return
	}
	d.made = true
	d.maxListSize = defaultMaxHeaderListSize
	d.maxFields = defaultMaxFields
	d.maxStringLen = defaultMaxHeaderListSize
	d.setInternedValues(defaultInternedValues[:])
}

// initTableMax gives the table its maximum before any size update.
func (d *Decoder) initTableMax() {
	d.table.max = min(d.settingsMax, DefaultTableSize)
	d.updateRequired = false
}

// SetMaxHeaderListSize sets the header list limit, counted as RFC 9113
// does: name + value + 32 bytes per field (64 KiB by default). 0 restores
// the default; a negative n means no limit. Set in the middle of a block,
// the new limit counts at once.
func (d *Decoder) SetMaxHeaderListSize(n int) {
	d.ready()
	n = limitValue(n, defaultMaxHeaderListSize)
	d.sizeLeft += n - d.maxListSize
	d.maxListSize = n
}

// SetMaxFields sets the limit on fields per header list (256 by default).
// 0 restores the default; a negative n means no limit. Set in the middle
// of a block, the new limit counts at once.
func (d *Decoder) SetMaxFields(n int) {
	d.ready()
	n = limitValue(n, defaultMaxFields)
	d.fieldsLeft += n - d.maxFields
	d.maxFields = n
}

// SetMaxStringLength sets the limit on one name or value, before and after
// Huffman decoding (64 KiB by default). 0 restores the default; a
// negative n means no limit of its own: strings are then bounded by the
// header list size alone, as in x/net's Decoder.
//
// A string over the limit is a stream error: the field is dropped with a
// *DecodingError wrapping ErrStringLength, the block is decoded to its end,
// and the dynamic table stays in sync. The string's bytes are buffered
// only when the table needs them (a field to be indexed whose entry may
// fit the table); otherwise they are skipped as they arrive.
func (d *Decoder) SetMaxStringLength(n int) {
	d.ready()
	d.maxStringLen = min(limitValue(n, defaultMaxHeaderListSize), maxStringLimit)
}

// noLimit stands for "no limit": no block reaches it, and adding or
// subtracting another limit cannot overflow.
const noLimit = math.MaxInt / 4

// maxStringLimit is the largest string limit: a field of two strings
// within it has a size that fits a uint32.
const maxStringLimit = 1<<31 - entryOverhead

// limitValue maps a setter's argument to the limit it means, by the
// module's convention: 0 is the default, a negative n no limit, anything
// else itself (at most noLimit).
func limitValue(n, def int) int {
	switch {
	case n == 0:
		return def
	case n < 0:
		return noLimit
	}
	return min(n, noLimit)
}

// SetInterner sets what the decoder interns beyond the well-known strings,
// which always become atoms. t, nil by default, is a table to intern the
// peer's other names, and values of the interned keys, in; with nil they
// are copied into the batch. Give each connection a table of its own: one
// peer could fill a shared table for all of them.
//
// values, when given, replace the keys whose values are interned (by
// default :method, :scheme, :status, content-type, te, grpc-encoding,
// grpc-accept-encoding, accept-encoding, content-encoding and
// grpc-status). staticdata.KeyUnknown stands for every name that is not
// well known; IDs that name no key are ignored, so SetInterner(t, 255)
// interns no values. Intern only values with few distinct strings.
func (d *Decoder) SetInterner(t *intern.Table, values ...staticdata.KeyID) {
	d.ready()
	d.interner = t
	d.cache.reset()
	if len(values) > 0 {
		d.setInternedValues(values)
	}
}

// setInternedValues sets the keys whose values are interned.
func (d *Decoder) setInternedValues(keys []staticdata.KeyID) {
	d.internValue = [tier.NumKeys]bool{}
	for _, k := range keys {
		if k < tier.NumKeys {
			d.internValue[k] = true
		}
	}
}

// SetAllowedMaxDynamicTableSize records a new SETTINGS_HEADER_TABLE_SIZE
// that we advertise, once the peer has acknowledged it: the upper bound of
// the peer's size updates, as in x/net. Size updates above it are then
// errors, and if it is below the table's current size limit, the next
// block must start with a size update no larger than the lowest value set
// since the last block (RFC 7541 §4.2), or SetMaxDynamicTableSize must
// stand for it; x/net's decoder does not require that update. 0 allows no
// dynamic table at all.
func (d *Decoder) SetAllowedMaxDynamicTableSize(v uint32) {
	if v < d.table.max {
		if !d.updateRequired || v < d.lowestSettings {
			d.lowestSettings = v
		}
		d.updateRequired = true
	}
	d.settingsMax = v
}

// SetMaxDynamicTableSize sets the dynamic table's maximum size to v at
// once, evicting the oldest entries as needed, as a size update from the
// peer does (RFC 7541 §4.2, §6.3): for a size agreed other than on the
// wire, as with x/net's method of the same name. 0 empties the table until
// the peer's next size update. It also stands for the update that a lower
// SetAllowedMaxDynamicTableSize requires: the table first shrinks to the
// lowest bound set since the last block. v may exceed the allowed
// maximum, which still bounds the peer's own size updates.
//
// In the middle of a block, between fragments or from DecodeFragmentFunc's
// fn, it applies to the fields after that point.
func (d *Decoder) SetMaxDynamicTableSize(v uint32) { d.setTableMax(v) }

// setTableMax applies a new table maximum, the peer's size update or
// SetMaxDynamicTableSize's, and meets a required update.
func (d *Decoder) setTableMax(v uint32) {
	if d.updateRequired {
		d.updateRequired = false
		d.table.evictTo(min(v, d.lowestSettings))
	}
	d.table.setMax(v)
}

// DynamicTableSize returns the dynamic table's size and its current maximum
// in RFC 7541 terms.
func (d *Decoder) DynamicTableSize() (size, max uint32) { return d.table.size, d.table.max }

// DynamicEntry returns dynamic table entry i (0 is the newest), and ok
// false, with empty strings, past the last entry.
func (d *Decoder) DynamicEntry(i int) (name, value string, ok bool) {
	if i < 0 || i >= d.table.len() {
		return "", "", false
	}
	e := d.table.at(i)
	return e.name.String(), e.value.String(), true
}

// Decode decodes a whole header block, appending its fields to dst. It
// returns nil, a *DecodingError (fields past a limit were dropped; the decoder
// stays usable) or a decoding error. A nil dst drops the fields, but the
// block is still decoded, so that the dynamic table stays in sync.
func (d *Decoder) Decode(dst *mdelem.Batch, block []byte) error {
	if err := d.begin(); err != nil {
		return err
	}
	if dst == nil {
		dst = d.discardBatch()
	}
	n, need, err := d.parse(dst, block)
	if err == nil && (need > 0 || d.skipping) {
		err = d.truncated(n)
	}
	return d.end(err)
}

// DecodeFragment decodes one fragment of a header block (a HEADERS or
// CONTINUATION frame's payload), appending the fields it completes to dst;
// last marks the fragment that ends the block. Bytes of a field split
// across fragments are kept until the field is whole, and never parsed
// twice beyond its length prefixes, so the work stays linear in the
// block's size. Errors are as for Decode; a decoding error may come before
// the last fragment. A nil dst drops the fields, as for Decode.
func (d *Decoder) DecodeFragment(dst *mdelem.Batch, frag []byte, last bool) error {
	if dst == nil {
		dst = d.discardBatch()
	}
	if !d.inBlock {
		if err := d.begin(); err != nil {
			return err
		}
	} else if d.err != nil {
		return d.poisoned()
	}
	buf := frag
	if len(d.pending) > 0 {
		d.pending = append(d.pending, frag...)
		if len(d.pending) < d.need && !last {
			return nil
		}
		buf = d.pending
	}
	n, need, err := d.parse(dst, buf)
	if err != nil {
		return d.end(err)
	}
	rest := buf[n:]
	if need == 0 {
		d.pending = d.pending[:0]
	} else {
		if last {
			return d.end(d.truncated(d.blockOff))
		}
		// Keep the incomplete field; copy handles the overlap when buf is
		// pending itself.
		d.pending = append(d.pending[:0], rest...)
		d.need = need
	}
	if !last {
		return nil
	}
	if d.skipping {
		return d.end(d.truncated(d.blockOff))
	}
	return d.end(nil)
}

// truncated is the error for a block that ends inside the field at off,
// or inside the dropped field being skipped.
func (d *Decoder) truncated(off int) error {
	if d.skipping {
		off = d.skipOff
	}
	return &DecodingError{Offset: off, Err: ErrTruncated}
}

// DecodeFragmentFunc is DecodeFragment with fn in place of a batch: fn is
// called with each field as soon as it is decoded, in order, before
// DecodeFragmentFunc returns. Limits, errors and the dynamic table are as
// for DecodeFragment; a field over a limit is not passed to fn. A nil fn
// drops the fields, as a nil batch does.
//
// Values that are not atoms reach fn as owned bytes (Str.IsBorrowed is false)
// that the decoder never writes again: fn may keep them without copying,
// and later indexed fields pass the same bytes. Names that are not atoms
// are valid only during the call: fn copies what it keeps of them
// (Str.String does). Unlike Decode, it allocates: values are copied into
// small slabs (a value over 64 bytes gets memory of its own), and a value
// kept keeps its slab alive.
func (d *Decoder) DecodeFragmentFunc(fn func(f mdelem.Field), frag []byte, last bool) error {
	if fn == nil {
		return d.DecodeFragment(nil, frag, last)
	}
	d.fn = fn
	defer func() { d.fn = nil }()
	return d.DecodeFragment(nil, frag, last)
}

// BlockErr returns the limit the open block has reached so far, as a
// *DecodingError for which IsStreamError is true, or nil: nil too between
// blocks. The call that ends the block returns the same error. A caller
// that streams fragments can use it to refuse the stream early, while it
// still feeds the block's remaining fragments, so that the dynamic table
// stays in step with the peer's.
func (d *Decoder) BlockErr() error {
	if !d.inBlock || d.limitErr == nil {
		return nil
	}
	return d.limitErr
}

// discardBatch returns the emptied batch that a nil dst stands for.
func (d *Decoder) discardBatch() *mdelem.Batch {
	if d.discard == nil {
		d.discard = mdelem.NewBatch(0, 0)
	}
	d.discard.Reset()
	return d.discard
}

// begin starts a block.
func (d *Decoder) begin() error {
	if d.err != nil {
		return d.poisoned()
	}
	if d.inBlock {
		return ErrBlockOpen
	}
	if !d.made {
		d.ready()
	}
	d.inBlock = true
	d.blockOff = 0
	d.pending = d.pending[:0]
	d.need = 0
	d.sawField = false
	d.skipLeft, d.skipValue, d.skipping = 0, false, false
	d.updates = 0
	d.fieldsLeft = d.maxFields
	d.sizeLeft = d.maxListSize
	d.limitErr = nil
	return nil
}

// end closes the block with err, which poisons the decoder if it is a
// decoding error.
func (d *Decoder) end(err error) error {
	d.inBlock = false
	d.pending = d.pending[:0]
	if err == nil && d.updateRequired {
		// A block with no field in it still had to start with the size
		// update (RFC 9113 §4.3.1): an empty one lacks it too.
		err = &DecodingError{Offset: d.blockOff, Err: ErrSizeUpdateMissing}
	}
	if err != nil {
		d.err = err
		return err
	}
	if d.limitErr != nil {
		return d.limitErr
	}
	return nil
}

func (d *Decoder) poisoned() error {
	return fmt.Errorf("%w (%w)", ErrDecoderPoisoned, d.err)
}

// Reset returns the decoder to its state after NewDecoder with the current
// SETTINGS value and limits: an empty dynamic table, no open block, no
// earlier error, and nothing remembered of the strings decoded so far. It
// keeps its memory, for reuse on a new connection.
func (d *Decoder) Reset() {
	d.table.evictTo(0)
	d.keepSlab = keepSlab{} // its bytes may be the last connection's strings
	d.cache.reset()
	d.initTableMax()
	d.err = nil
	d.inBlock = false
	d.pending = d.pending[:0]
}

// keepSlabSize is the size of the slabs DecodeFragmentFunc copies values
// into, small because a kept value keeps its slab alive; a value over
// keepSlabMax gets a slice of its own.
const (
	keepSlabSize = 512
	keepSlabMax  = 64
)

// keepSlab is the memory DecodeFragmentFunc copies literal values into,
// cut only forward, so owned bytes are never written again. Values to be
// indexed get their own run of slabs, which then hold little but the
// table's values: a peer cannot make each small entry pin a slab.
type keepSlab struct {
	indexed, others slab
}

// slab is the current slab of one run, and how much of it is handed out.
type slab struct {
	b    []byte
	used int
}

// ownedCopy returns a copy of b as owned bytes in memory of its own (see
// keepSlab), from the indexed run when indexing is set; an empty b gives
// owned bytes of length 0.
func (d *Decoder) ownedCopy(b []byte, indexing bool) mdelem.Str {
	if len(b) == 0 {
		return mdelem.StrOf(mdelem.Owned(nil))
	}
	s := &d.keepSlab.others
	if indexing {
		s = &d.keepSlab.indexed
	}
	c := s.cut(len(b))
	if c == nil {
		c = d.keepMemory(s, len(b))
	}
	copy(c, b)
	return mdelem.StrOf(mdelem.Owned(c))
}

// cut returns the next n bytes of s's slab, n > 0, or nil when it has
// not that many left.
func (s *slab) cut(n int) []byte {
	used := s.used
	if n > len(s.b)-used {
		return nil
	}
	s.used = used + n
	return s.b[used : used+n : used+n]
}

// keepMemory returns n bytes from a new slab, or of their own when n is
// over keepSlabMax. Out of line: it runs once per slab.
//
//go:noinline
func (d *Decoder) keepMemory(s *slab, n int) []byte {
	if n > keepSlabMax {
		return make([]byte, n)
	}
	s.b, s.used = make([]byte, keepSlabSize), n
	return s.b[:n:n]
}
