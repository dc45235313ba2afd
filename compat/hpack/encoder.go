package hpack

import (
	"io"

	mhpack "github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// An Encoder performs HPACK encoding, one field per WriteField call.
type Encoder struct {
	e     *mhpack.Encoder
	w     io.Writer
	buf   []byte
	limit uint32 // SetMaxDynamicTableSizeLimit's value
}

// NewEncoder returns a new Encoder which performs HPACK encoding. An
// encoded data is written to w.
func NewEncoder(w io.Writer) *Encoder {
	return &Encoder{
		e:     mhpack.NewEncoder(mhpack.DefaultTableSize),
		w:     w,
		limit: mhpack.DefaultTableSize,
	}
}

// WriteField encodes f into a single Write to e's underlying Writer.
// This function may also produce bytes for "Header Table Size Update"
// if necessary. If produced, it is done before encoding f.
func (e *Encoder) WriteField(f HeaderField) error {
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
	n, err := e.w.Write(e.buf)
	if err == nil && n != len(e.buf) {
		err = io.ErrShortWrite
	}
	return err
}

// SetMaxDynamicTableSize changes the dynamic header table size to v.
// The actual size is bounded by the value passed to
// SetMaxDynamicTableSizeLimit.
func (e *Encoder) SetMaxDynamicTableSize(v uint32) {
	e.e.SetMaxDynamicTableSize(min(v, e.limit))
}

// MaxDynamicTableSize returns the current dynamic header table size.
func (e *Encoder) MaxDynamicTableSize() (v uint32) {
	_, v = e.e.DynamicTableSize()
	return v
}

// SetMaxDynamicTableSizeLimit changes the maximum value that can be
// specified in SetMaxDynamicTableSize to v. By default, it is set to
// 4096, which is the same size of the default dynamic header table size
// described in HPACK specification. If the current maximum dynamic header
// table size is strictly greater than v, "Header Table Size Update" will
// be done in the next WriteField call and the maximum dynamic header
// table size is truncated to v. Limits above 1 GiB are taken as 1 GiB.
func (e *Encoder) SetMaxDynamicTableSizeLimit(v uint32) {
	e.limit = v
	cur := min(e.MaxDynamicTableSize(), v)
	e.e.SetMaxDynamicTableSizeLimit(v)
	// metapack's maximum is min(peer setting, limit): pin the peer
	// setting to the current maximum so that raising the limit does not
	// raise the maximum, as in x/net.
	e.e.SetMaxDynamicTableSize(cur)
}
