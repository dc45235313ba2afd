package hpack

import (
	"fmt"
	"github.com/metapack/metapack/internal/dyntable"
	"github.com/metapack/metapack/internal/hcode"
	"github.com/metapack/metapack/internal/internkeys"
	"github.com/metapack/metapack/internal/limit"
	"github.com/metapack/metapack/internal/tabledef"

	"github.com/metapack/metapack/intern"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

const (
	// defaultMaxHeaderListSize, also the default string limit: browsers and
	// gRPC send lists of a few KiB, and it bounds what one hostile block
	// costs. (headerblock uses x/net's Framer's 16 MiB, to match x/net.)
	defaultMaxHeaderListSize = 64 << 10
	defaultMaxFields         = 256
	// entryOverhead is the 32 bytes RFC 7541 §4.1 adds to each entry's size.
	entryOverhead = tabledef.FieldOverhead
	// DefaultTableSize is HTTP/2's initial SETTINGS_HEADER_TABLE_SIZE.
	DefaultTableSize = 4096
)

// Decoder decodes HPACK header blocks (RFC 7541) into mdelem batches, for
// one direction of one connection. It is not safe for concurrent use.
// Well-known names and the values of a few low-cardinality keys become
// atoms; other strings are copied into the batch unless SetInterner gives
// it a table. In steady state Decode allocates nothing.
//
// A decoding error leaves the Decoder unusable: every later call fails.
// Going over a limit (IsStreamError) does not: the block is still decoded,
// so the dynamic table stays in sync, and only the fields past it are
// dropped. The zero Decoder is NewDecoder(0).
type Decoder struct {
	table       dyntable.Table
	settingsMax uint32 // the SETTINGS_HEADER_TABLE_SIZE we advertise
	// updateRequired: the next block must start with an update of at most
	// lowestSettings.
	updateRequired bool
	lowestSettings uint32

	maxListSize, maxFields, maxStringLen int
	interner                             *intern.Table
	internValue                          internkeys.Set

	err error // set by a decoding error; every later call fails with it

	// A dropped field's strings being skipped (see resumeSkip).
	skipLeft  int
	skipValue bool
	skipping  bool
	skipOff   int
	skipHuff  bool
	skipCheck hcode.Checker

	discard *mdelem.Batch      // what a nil dst decodes into
	fn      func(mdelem.Field) // takes the fields during DecodeFragmentFunc
	keepSlab
	made bool // NewDecoder's defaults are in place (see ready)

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

	nameBuf, valueBuf []byte     // Huffman output
	cache             *atomCache // made by the first string put in it
}

// NewDecoder returns a Decoder, with the default limits, for a connection
// on which we advertise SETTINGS_HEADER_TABLE_SIZE = tableSize. The table
// starts at the lower of tableSize and DefaultTableSize (RFC 9113 §6.5.2).
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
	d.internValue = internkeys.Default()
}

// initTableMax gives the table its maximum before any size update.
func (d *Decoder) initTableMax() {
	d.table.SetMax(min(d.settingsMax, DefaultTableSize))
	d.updateRequired = false
}

// SetMaxHeaderListSize sets the header list limit, counted as RFC 9113
// does: name + value + 32 bytes per field (64 KiB by default). 0 restores
// the default; a negative n means no limit. Set in the middle of a block,
// the new limit counts at once.
func (d *Decoder) SetMaxHeaderListSize(n int) {
	d.ready()
	n = limit.Value(n, defaultMaxHeaderListSize)
	d.sizeLeft += n - d.maxListSize
	d.maxListSize = n
}

// SetMaxFields sets the limit on fields per header list (256 by default).
// 0 restores the default; a negative n means no limit. Set in the middle
// of a block, the new limit counts at once.
func (d *Decoder) SetMaxFields(n int) {
	d.ready()
	n = limit.Value(n, defaultMaxFields)
	d.fieldsLeft += n - d.maxFields
	d.maxFields = n
}

// SetMaxStringLength sets the limit on one name or value, before and after
// Huffman decoding (64 KiB by default). 0 restores the default; a negative
// n leaves strings bounded by the header list size alone, as in x/net.
// A string over the limit is a stream error wrapping ErrStringLength; its
// bytes are buffered only when the dynamic table needs them.
func (d *Decoder) SetMaxStringLength(n int) {
	d.ready()
	d.maxStringLen = min(limit.Value(n, defaultMaxHeaderListSize), maxStringLimit)
}

const (
	// maxStringLimit keeps a field of two strings' size within a uint32.
	maxStringLimit = 1<<31 - entryOverhead
)

// SetInterner sets t (nil by default) as the table the peer's other names,
// and the values of the interned keys, are interned in; with nil they are
// copied. Give each connection a table of its own.
//
// values, when given, replace the keys whose values are interned (by
// default :method, :scheme, :status, content-type, te, grpc-encoding,
// grpc-accept-encoding, accept-encoding, content-encoding and grpc-status).
// staticdata.KeyUnknown stands for every other name; IDs that name no key
// are ignored, so SetInterner(t, 255) interns no values.
func (d *Decoder) SetInterner(t *intern.Table, values ...staticdata.KeyID) {
	d.ready()
	d.interner = t
	d.cache.reset()
	if len(values) > 0 {
		d.internValue = internkeys.Of(values)
	}
}

// SetAllowedMaxDynamicTableSize records the SETTINGS_HEADER_TABLE_SIZE we
// advertise, once the peer acknowledged it: the bound of its size updates,
// as in x/net. If it is below the table's current limit, the next block
// must start with a size update no larger than the lowest value set since
// the last block (RFC 7541 §4.2; x/net does not require it), unless
// SetMaxDynamicTableSize stands for it.
func (d *Decoder) SetAllowedMaxDynamicTableSize(v uint32) {
	if v < d.table.Max() {
		if !d.updateRequired || v < d.lowestSettings {
			d.lowestSettings = v
		}
		d.updateRequired = true
	}
	d.settingsMax = v
}

// SetMaxDynamicTableSize sets the dynamic table's maximum to v at once, as
// a peer's size update does (RFC 7541 §6.3), for a size agreed other than
// on the wire, as x/net's method does. It also stands for the update a
// lower SetAllowedMaxDynamicTableSize requires. Within a block it applies
// to the fields after that point.
func (d *Decoder) SetMaxDynamicTableSize(v uint32) { d.setTableMax(v) }

// setTableMax applies a new table maximum, the peer's size update or
// SetMaxDynamicTableSize's, and meets a required update.
func (d *Decoder) setTableMax(v uint32) {
	if d.updateRequired {
		d.updateRequired = false
		d.table.EvictTo(min(v, d.lowestSettings))
	}
	d.table.SetMax(v)
}

// DynamicTableSize returns the dynamic table's size and its current maximum
// in RFC 7541 terms.
func (d *Decoder) DynamicTableSize() (size, max uint32) { return d.table.Size(), d.table.Max() }

// DynamicEntry returns dynamic table entry i (0 is the newest), and ok
// false, with empty strings, past the last entry.
func (d *Decoder) DynamicEntry(i int) (name, value string, ok bool) {
	if i < 0 || i >= d.table.Len() {
		return "", "", false
	}
	e := d.table.At(i)
	return e.Name.String(), e.Value.String(), true
}

// Decode decodes a whole header block, appending its fields to dst. It
// returns nil, a stream error (fields past a limit were dropped) or a
// decoding error. A nil dst drops the fields; the block is still decoded.
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
// last marks the block's final fragment. The work stays linear in the
// block's size. Errors and a nil dst are as for Decode.
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

// DecodeFragmentFunc is DecodeFragment with fn, called with each field in
// order as it is decoded, in place of a batch; a field over a limit is not
// passed to fn, and a nil fn drops the fields.
//
// Values that are not atoms reach fn as owned bytes that the decoder never
// writes again: fn may keep them without copying. Names that are not atoms
// are valid only during the call. Unlike Decode, it allocates: values are
// copied into small slabs, and a value kept keeps its slab alive.
func (d *Decoder) DecodeFragmentFunc(fn func(f mdelem.Field), frag []byte, last bool) error {
	if fn == nil {
		return d.DecodeFragment(nil, frag, last)
	}
	d.fn = fn
	defer func() { d.fn = nil }()
	return d.DecodeFragment(nil, frag, last)
}

// BlockErr returns the limit the open block has reached so far (a stream
// error, which the call ending the block returns too), or nil, also between
// blocks: a caller can refuse the stream early, while it still feeds the
// block's remaining fragments.
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
// SETTINGS value and limits, keeping its memory, for a new connection.
func (d *Decoder) Reset() {
	d.table.EvictTo(0)
	d.keepSlab = keepSlab{} // its bytes may be the last connection's strings
	d.cache.reset()
	d.initTableMax()
	d.err = nil
	d.inBlock = false
	d.pending = d.pending[:0]
}

// DecodeFragmentFunc's slabs are small because a kept value keeps its slab
// alive; a value over keepSlabMax gets a slice of its own.
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
