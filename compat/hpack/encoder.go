package hpack

import (
	"io"

	mhpack "github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// An Encoder encodes the header fields one side sends on one connection,
// one field per WriteField call, keeping their dynamic table. It is not
// safe for concurrent use. The zero Encoder is NewEncoder(nil)'s: it
// discards its output (x/net's zero Encoder panics).
type Encoder struct {
	e     *mhpack.Encoder
	w     io.Writer
	buf   []byte
	limit uint32 // SetMaxDynamicTableSizeLimit's value
	max   uint32 // the table's maximum size
}

// NewEncoder returns an Encoder that writes what it encodes to w, with a
// 4096-byte dynamic table. A nil w discards the output.
func NewEncoder(w io.Writer) *Encoder {
	e := &Encoder{w: w}
	e.ready()
	return e
}

// ready gives a zero Encoder metapack's Encoder, with a 4096-byte table.
func (e *Encoder) ready() {
	if e.e == nil {
		e.e, e.limit, e.max = mhpack.NewEncoder(mhpack.DefaultTableSize), mhpack.DefaultTableSize, mhpack.DefaultTableSize
	}
}

// WriteField encodes f, after any size update the table's maximum
// requires, and writes it in one Write call. It returns the Write's
// error, or io.ErrShortWrite.
func (e *Encoder) WriteField(f HeaderField) error {
	e.ready()
	var mf mdelem.Field
	name := mdelem.BorrowString(f.Name) // the encoder looks names up itself
	if v := staticdata.Lookup(f.Value); v != nil {
		mf = mdelem.From(name, v)
	} else {
		mf = mdelem.From(name, mdelem.BorrowString(f.Value))
	}
	if f.Sensitive {
		mf = mf.WithSensitive(true)
	}
	e.buf = e.e.AppendField(e.buf[:0], mf)
	if e.w == nil {
		return nil
	}
	n, err := e.w.Write(e.buf)
	if err == nil && n != len(e.buf) {
		err = io.ErrShortWrite
	}
	return err
}

// SetMaxDynamicTableSize sets the table's maximum size to v, or to the
// limit set with SetMaxDynamicTableSizeLimit when v is above it. The next
// WriteField tells the peer with a size update. 0 stops the Encoder from
// indexing anything.
func (e *Encoder) SetMaxDynamicTableSize(v uint32) {
	e.ready()
	e.max = min(v, e.limit, 1<<30) // metapack's Encoder takes over 1 GiB as 1 GiB
	e.e.SetMaxDynamicTableSize(e.max)
}

// MaxDynamicTableSize returns the table's maximum size (not the size of
// what it holds).
func (e *Encoder) MaxDynamicTableSize() (v uint32) {
	e.ready()
	return e.max
}

// SetMaxDynamicTableSizeLimit bounds what SetMaxDynamicTableSize may set:
// the peer's SETTINGS_HEADER_TABLE_SIZE, at first 4096. A limit below the
// current maximum lowers the maximum to it, and the next WriteField sends
// the size update. Above 1 GiB is taken as 1 GiB; 0 allows no table.
func (e *Encoder) SetMaxDynamicTableSizeLimit(v uint32) {
	e.ready()
	e.limit = v
	e.max = min(e.max, v)
	e.e.SetMaxDynamicTableSizeLimit(v)
	// metapack's maximum is min(peer setting, limit): pin the peer setting
	// so that raising the limit does not raise the maximum, as in x/net.
	e.e.SetMaxDynamicTableSize(e.max)
}
