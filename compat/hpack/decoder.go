package hpack

import (
	"errors"
	"math"

	mhpack "github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/intern"
	"github.com/metapack/metapack/mdelem"
)

// A Decoder decodes the header blocks one peer sends on one connection,
// in order, keeping their dynamic table. It is not safe for concurrent
// use. The zero Decoder behaves as x/net's: no dynamic table until
// SetAllowedMaxDynamicTableSize, no emit function, emitting off.
type Decoder struct {
	d       *mhpack.Decoder
	strings *strCache // made by the first name that is no atom
	emit    func(f HeaderField)
	fieldFn func(mdelem.Field) // field, made once
	sink    *[]HeaderField     // where DecodeFull collects the fields

	emitEnabled  bool
	open         bool // bytes were written since the last Close
	overReported bool // Write has returned ErrStringLength for the open block
}

// NewDecoder returns a Decoder whose peer may use up to
// maxDynamicTableSize bytes of dynamic table (above 4096 only after a
// size update; see the package doc), and which calls emitFunc with each
// field it decodes, from within Write, Close or DecodeFull.
func NewDecoder(maxDynamicTableSize uint32, emitFunc func(f HeaderField)) *Decoder {
	d := &Decoder{emit: emitFunc, emitEnabled: true}
	d.init(maxDynamicTableSize)
	return d
}

// init gives d metapack's Decoder with x/net's limits: none (x/net's
// callers enforce MAX_HEADER_LIST_SIZE with SetEmitEnabled).
func (d *Decoder) init(maxDynamicTableSize uint32) {
	md := mhpack.NewDecoder(maxDynamicTableSize)
	md.SetMaxFields(-1)
	md.SetMaxHeaderListSize(-1)
	md.SetMaxStringLength(-1)
	md.SetInterner(intern.New(internLimits))
	d.d = md
	d.fieldFn = d.field
}

// ready makes a zero Decoder usable, as the Decoder doc says.
func (d *Decoder) ready() {
	if d.d == nil {
		d.init(0)
	}
}

// internLimits bound each Decoder's intern table: one per connection.
var internLimits = intern.Limits{MaxEntries: 64, MaxBytes: 8 << 10, MaxLen: 128}

// SetMaxStringLength limits each decoded name and value, counted after
// Huffman decoding, to n bytes. The Write that reaches a longer string
// returns ErrStringLength, and so do the Close or DecodeFull that end its
// block; see the package doc. 0, the default, or a negative n means no
// limit, as in x/net.
func (d *Decoder) SetMaxStringLength(n int) {
	d.ready()
	if n <= 0 {
		n = -1 // no limit, in metapack's convention
	}
	d.d.SetMaxStringLength(n)
}

// SetEmitFunc replaces the function that receives decoded fields. It
// leaves EmitEnabled as it is. A nil emitFunc discards the fields.
func (d *Decoder) SetEmitFunc(emitFunc func(f HeaderField)) { d.emit = emitFunc }

// SetEmitEnabled turns the calls of the emit function on or off; they
// start on. While they are off, blocks are still decoded, so the dynamic
// table follows the peer's, but strings no field needs are skipped: a
// server past its SETTINGS_MAX_HEADER_LIST_SIZE turns emitting off for
// the rest of the block. Called from the emit function, it applies to
// the fields after the current one.
func (d *Decoder) SetEmitEnabled(v bool) { d.emitEnabled = v }

// EmitEnabled reports whether decoded fields are passed to the emit
// function (see SetEmitEnabled).
func (d *Decoder) EmitEnabled() bool { return d.emitEnabled }

// SetMaxDynamicTableSize sets the dynamic table's current maximum size,
// as a size update from the peer would, evicting entries as needed; it
// also stands for the size update that a lower
// SetAllowedMaxDynamicTableSize requires (see the package doc). Called
// while a block is open, it takes effect at once. 0 empties the table
// until the peer's next size update.
func (d *Decoder) SetMaxDynamicTableSize(v uint32) {
	d.ready()
	d.d.SetMaxDynamicTableSize(v)
}

// SetAllowedMaxDynamicTableSize sets the largest table size the peer's
// size updates may ask for: the SETTINGS_HEADER_TABLE_SIZE this side
// advertises. A bound below the table's current maximum requires a size
// update at the peer's next block (see the package doc). 0 allows no
// dynamic table.
func (d *Decoder) SetAllowedMaxDynamicTableSize(v uint32) {
	d.ready()
	d.d.SetAllowedMaxDynamicTableSize(v)
}

// Close ends the block that Write calls have fed. It returns a
// DecodingError when the block stopped inside a field, and
// ErrStringLength when a string was over the limit. Without an open
// block it does nothing.
func (d *Decoder) Close() error {
	d.ready()
	var err error
	if d.open {
		err = d.decodeEnd(nil, nil)
	}
	d.endBlock()
	return err
}

// DecodeFull decodes p as one whole block and returns its fields instead
// of calling the emit function (nil for a block with no field). It ends
// a block that Write calls left open, with p as its last bytes.
func (d *Decoder) DecodeFull(p []byte) ([]HeaderField, error) {
	d.ready()
	var hf []HeaderField
	var err error
	if len(p) > 0 || d.open {
		err = d.decodeEnd(p, &hf)
	}
	d.endBlock()
	if err != nil {
		return nil, err
	}
	return hf, nil
}

// decodeEnd feeds p as the block's last fragment, its fields going to
// sink when it is not nil.
func (d *Decoder) decodeEnd(p []byte, sink *[]HeaderField) error {
	d.open = false
	d.sink = sink
	err := d.d.DecodeFragmentFunc(d.fn(), p, true)
	d.sink = nil
	return mapErr(err)
}

func (d *Decoder) endBlock() {
	d.open = false
	d.overReported = false
}

// Write decodes p, the next bytes of the open block (a new block starts
// with the first Write after Close), and emits the fields it completes.
// It returns len(p), and an error for a malformed block or
// ErrStringLength.
func (d *Decoder) Write(p []byte) (n int, err error) {
	d.ready()
	if len(p) == 0 {
		return 0, nil
	}
	d.open = true
	err = d.d.DecodeFragmentFunc(d.fn(), p, false)
	if err != nil {
		// Only a decoding error comes back here, and it ended the block.
		d.open = false
		return len(p), mapErr(err)
	}
	if !d.overReported && errors.Is(d.d.BlockErr(), mhpack.ErrStringLength) {
		d.overReported = true
		return len(p), ErrStringLength
	}
	return len(p), nil
}

// fn is what metapack's Decoder hands fields to: field, or nothing while
// emitting is off.
func (d *Decoder) fn() func(mdelem.Field) {
	if !d.emitEnabled {
		return nil
	}
	return d.fieldFn
}

// field turns a decoded field into a HeaderField, while emitting is
// enabled (the emit function may turn it off), and appends it to sink or
// emits it. Other than owned bytes, Strs are valid only during the call,
// and their strings are made here.
// DecodeFragmentFunc copies each literal value into memory of its own,
// owned bytes, which the dynamic table keeps too; field views them
// (Str.UnsafeString copies under purego), so that a later indexed field
// comes back as the same string.
//
// SAFETY: a string must never change. DecodeFragmentFunc writes each
// copy once, before fn sees it, and never again: its slabs are only ever
// cut forward, and the table and the batches only read kept bytes, within
// their length. Guarded by TestFieldViewsKeptBytesAtGuard (the views of
// bytes at guard pages), TestEmittedStringsNeverChange and
// TestIndexedFieldReusesString (both builds), TestDecodeFragmentFuncSlabs,
// TestDecodeFragmentFuncAtGuard and FuzzDecodeFunc.
func (d *Decoder) field(f mdelem.Field) {
	if !d.emitEnabled {
		return
	}
	// Atoms are checked for here, not in a call.
	hf := HeaderField{Sensitive: f.Sensitive()}
	if a := f.Name.Atom(); a != nil {
		hf.Name = a.String()
	} else {
		hf.Name = d.nameString(f.Name)
	}
	switch a := f.Value.Atom(); {
	case a != nil:
		hf.Value = a.String()
	case !f.Value.IsBorrowed():
		hf.Value = f.Value.UnsafeString()
	default:
		// Not through the string cache, which names use: a value the
		// peer sends again mostly comes from the table, and probing the
		// cache for the rest measured slower than making the string.
		hf.Value = string(f.Value.UnsafeBytes())
	}
	if d.sink != nil {
		*d.sink = append(*d.sink, hf)
	} else if d.emit != nil {
		d.emit(hf)
	}
}

// Error strings of x/net's for the conditions both detect.
var (
	errTruncated     = errors.New("truncated headers")
	errVarint        = errors.New("varint integer overflow")
	errUpdateTooBig  = errors.New("dynamic table size update too large")
	errUpdateNotHere = errors.New("dynamic table size update MUST occur at the beginning of a header block")
)

// mapErr turns metapack's decoding errors into x/net's.
func mapErr(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, mhpack.ErrDecoderPoisoned) {
		return DecodingError{Err: err}
	}
	if errors.Is(err, mhpack.ErrInvalidHuffman) {
		return ErrInvalidHuffman
	}
	var de *mhpack.DecodingError
	if errors.As(err, &de) {
		switch de.Err {
		case mhpack.ErrStringLength:
			return ErrStringLength
		case mhpack.ErrInvalidIndex:
			return DecodingError{Err: InvalidIndexError(min(de.Index, math.MaxInt32))}
		case mhpack.ErrTruncated:
			return DecodingError{Err: errTruncated}
		case mhpack.ErrIntegerOverflow:
			return DecodingError{Err: errVarint}
		case mhpack.ErrSizeUpdateTooLarge:
			return DecodingError{Err: errUpdateTooBig}
		case mhpack.ErrSizeUpdateNotFirst:
			return DecodingError{Err: errUpdateNotHere}
		}
		return DecodingError{Err: de.Err}
	}
	return DecodingError{Err: err}
}
