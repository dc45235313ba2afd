package qpack

import (
	"github.com/metapack/metapack/internal/internkeys"
	"github.com/metapack/metapack/internal/limit"
	"math"
	"sync"

	"github.com/metapack/metapack/intern"
	"github.com/metapack/metapack/internal/dyntable"
	"github.com/metapack/metapack/internal/hcode"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

const (
	// defaultMaxSectionSize, also the default string limit: what hpack's
	// decoder allows a header list, for the same reason (browsers and
	// gRPC send a few KiB; it bounds what one hostile section costs).
	defaultMaxSectionSize = 64 << 10
	defaultMaxFields      = 256
)

// Decoder decodes the peer's QPACK encoder stream and the field sections
// of all the streams of one HTTP/3 connection into mdelem batches.
//
// All its methods may be called concurrently: a connection usually reads
// the encoder stream on one goroutine while its request streams decode
// sections on others. The calls are serialized inside; each one is short,
// and none waits for input.
//
// A connection error (an *Error whose Code is not 0) leaves the Decoder
// unusable: every later call fails, and the connection must be closed
// with the error's Code. A stream error (IsStreamError) leaves it as it
// was. In steady state it allocates nothing.
//
// Blocked sections (RFC 9204 §2.1.2) are held by the caller, not by the
// Decoder: Decode answers ErrBlocked, and the caller keeps the section's
// bytes, at most SETTINGS_MAX_FIELD_SECTION_SIZE-bounded HEADERS payload
// per stream. The Decoder keeps 24 bytes per blocked stream, and at most
// the number of blocked streams advertised (and as many more for sections
// unblocked and not decoded yet).
type Decoder struct {
	mu sync.Mutex

	table dyntable.Table
	// maxCapacity is the SETTINGS_QPACK_MAX_TABLE_CAPACITY we advertise,
	// maxEntries the most entries it can hold (RFC 9204 §4.5.1.1).
	maxCapacity, maxEntries uint64
	maxBlocked              uint64
	inserts                 uint64 // the Insert Count: inserts received
	known                   uint64 // the inserts the encoder knows we have

	// The encoder stream: bytes consumed, and an instruction split over
	// writes.
	esOff     int64
	partial   []byte
	need      int // how long partial must grow before parsing resumes
	err       error
	blocked   []blockedSection
	unblocked []uint64
	// woken are the sections unblocked and not decoded again yet: their
	// Required Insert Count as first decoded, which decoding the same
	// bytes after more inserts could read differently (§4.5.1.1 wraps it).
	woken []blockedSection
	out   []byte // decoder instructions due (acks, cancellations)

	maxSectionSize, maxFields, maxStringLen int
	interner                                *intern.Table
	internValue                             internkeys.Set
	made                                    bool

	nameBuf, valueBuf, dupBuf []byte
	values                    *strCache  // made by the first value that uses it
	names                     *nameCache // made by the first literal name
}

// blockedSection is a stream whose section waits for inserts.
type blockedSection struct {
	stream   uint64
	enc      uint64 // the Encoded Required Insert Count
	required uint64
}

// NewDecoder returns a Decoder for a connection on which we advertise
// SETTINGS_QPACK_MAX_TABLE_CAPACITY = maxTableCapacity and
// SETTINGS_QPACK_BLOCKED_STREAMS = maxBlockedStreams, with the default
// limits. The table starts at capacity 0 until the encoder stream sets it.
// A capacity above 2^32-1 counts as 2^32-1.
func NewDecoder(maxTableCapacity, maxBlockedStreams uint64) *Decoder {
	d := &Decoder{}
	d.maxCapacity = min(maxTableCapacity, math.MaxUint32)
	d.maxEntries = d.maxCapacity / entryOverhead
	d.maxBlocked = maxBlockedStreams
	d.ready()
	return d
}

// ready gives a zero Decoder NewDecoder's defaults, once.
func (d *Decoder) ready() {
	if d.made {
		return
	}
	d.made = true
	d.maxSectionSize = defaultMaxSectionSize
	d.maxFields = defaultMaxFields
	d.maxStringLen = defaultMaxSectionSize
	d.internValue = internkeys.Default()
}

// SetMaxFieldSectionSize sets the limit on a field section's size, counted
// as RFC 9114 §4.2.2 does (name + value + 32 bytes per field): the
// SETTINGS_MAX_FIELD_SECTION_SIZE you advertise (64 KiB by default). 0
// restores the default; a negative n means no limit.
func (d *Decoder) SetMaxFieldSectionSize(n int) {
	d.mu.Lock()
	d.ready()
	d.maxSectionSize = limit.Value(n, defaultMaxSectionSize)
	d.mu.Unlock()
}

// SetMaxFields sets the limit on fields per section (256 by default). 0
// restores the default; a negative n means no limit.
func (d *Decoder) SetMaxFields(n int) {
	d.mu.Lock()
	d.ready()
	d.maxFields = limit.Value(n, defaultMaxFields)
	d.mu.Unlock()
}

// SetMaxStringLength sets the limit on one name or value of a field
// section, after Huffman decoding (64 KiB by default). 0 restores the
// default; a negative n leaves strings bounded by the section size alone.
// Strings on the encoder stream are bounded by the table capacity.
func (d *Decoder) SetMaxStringLength(n int) {
	d.mu.Lock()
	d.ready()
	d.maxStringLen = limit.Value(n, defaultMaxSectionSize)
	d.mu.Unlock()
}

// SetInterner sets t (nil by default) as the table the peer's names, and
// the values of the interned keys, are interned in; with nil they are
// copied. Give each connection a table of its own. values, when given,
// replace the keys whose values are interned, as for hpack's
// Decoder.SetInterner.
func (d *Decoder) SetInterner(t *intern.Table, values ...staticdata.KeyID) {
	d.mu.Lock()
	d.ready()
	d.interner = t
	if len(values) > 0 {
		d.internValue = internkeys.Of(values)
	}
	d.mu.Unlock()
}

// InsertCount returns the number of entries inserted into the dynamic
// table so far.
func (d *Decoder) InsertCount() uint64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.inserts
}

// TableSize returns the dynamic table's size and capacity in RFC 9204
// terms.
func (d *Decoder) TableSize() (size, capacity uint64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return uint64(d.table.Size()), uint64(d.table.Max())
}

// DynamicEntry returns the dynamic table entry of absolute index abs, and
// ok false when it is absent or evicted.
func (d *Decoder) DynamicEntry(abs uint64) (name, value string, ok bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	e := d.entry(abs)
	if e == nil {
		return "", "", false
	}
	return e.Name.String(), e.Value.String(), true
}

// entry returns the entry of absolute index abs, or nil.
func (d *Decoder) entry(abs uint64) *dyntable.Entry {
	if abs >= d.inserts {
		return nil
	}
	rel := d.inserts - 1 - abs
	if rel >= uint64(d.table.Len()) {
		return nil
	}
	return d.table.At(int(rel))
}

// AppendUnblocked appends the streams whose blocked sections can now be
// decoded, each once, and forgets them.
func (d *Decoder) AppendUnblocked(dst []uint64) []uint64 {
	d.mu.Lock()
	dst = append(dst, d.unblocked...)
	d.unblocked = d.unblocked[:0]
	d.mu.Unlock()
	return dst
}

// CancelStream tells the Decoder that the application abandoned a stream
// before its section was decoded (RFC 9204 §2.2.2.2), or reset it: it
// frees the stream's blocked slot and queues a Stream Cancellation. With a
// table capacity of 0 advertised nothing is sent (§4.4.2 allows that).
func (d *Decoder) CancelStream(streamID uint64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.forget(streamID)
	if d.maxCapacity > 0 && d.err == nil {
		d.out = hcode.AppendInt(d.out, 6, 0x40, min(streamID, hcode.MaxInt62))
	}
}

// forget drops the stream from the blocked and unblocked lists.
func (d *Decoder) forget(streamID uint64) {
	for i := 0; i < len(d.blocked); i++ {
		if d.blocked[i].stream == streamID {
			d.blocked[i] = d.blocked[len(d.blocked)-1]
			d.blocked = d.blocked[:len(d.blocked)-1]
			break
		}
	}
	for i, s := range d.unblocked {
		if s == streamID {
			d.unblocked = append(d.unblocked[:i], d.unblocked[i+1:]...)
			break
		}
	}
	for i, s := range d.woken {
		if s.stream == streamID {
			d.woken = append(d.woken[:i], d.woken[i+1:]...)
			break
		}
	}
}

// AppendDecoderStream appends the decoder instructions due (RFC 9204
// §4.4) for you to write on the decoder stream: a Section Acknowledgment
// for each decoded section that referred to the dynamic table, a Stream
// Cancellation for each CancelStream, and then one Insert Count Increment
// for the inserts received that no acknowledgment covers. Calling it after
// each write to WriteEncoderStream lets the peer's encoder refer to new
// entries without risking blocked streams; calling it less often sends
// fewer, larger increments.
func (d *Decoder) AppendDecoderStream(dst []byte) []byte {
	d.mu.Lock()
	defer d.mu.Unlock()
	dst = append(dst, d.out...)
	d.out = d.out[:0]
	if d.err == nil && d.inserts > d.known {
		dst = hcode.AppendInt(dst, 6, 0x00, d.inserts-d.known)
		d.known = d.inserts
	}
	return dst
}

// resolve returns b as a field string: its atom, or its interned handle
// when internIt is set and the Decoder has an interner, else the bytes,
// borrowed.
func (d *Decoder) resolve(b []byte, internIt bool) mdelem.Str {
	if internIt {
		if h, ok := intern.Make(d.interner, b); ok {
			return mdelem.StrOf(h.Atom())
		}
	}
	return mdelem.StrOf(mdelem.Borrowed(b))
}

// valueInterned reports whether values of the name are interned.
func (d *Decoder) valueInterned(name mdelem.Str) bool {
	if a := name.Atom(); a != nil {
		return d.internValue[a.Key()]
	}
	return d.internValue[staticdata.KeyUnknown]
}
