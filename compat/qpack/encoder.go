package qpack

import (
	"io"
	"sync"

	"github.com/metapack/metapack/mdelem"
	mqpack "github.com/metapack/metapack/qpack"
)

// An Encoder writes a field section that uses the static table only, one
// field at a time. It is not safe for concurrent use.
type Encoder struct {
	w           io.Writer
	wrotePrefix bool
	st          *encodeState // borrowed from the first WriteField to Close
}

// encodeState is a static-only metapack Encoder and a buffer.
type encodeState struct {
	enc *mqpack.Encoder
	buf []byte
}

var encoders = sync.Pool{New: func() any { return &encodeState{enc: mqpack.NewEncoder()} }}

// NewEncoder returns an Encoder that writes the sections it encodes to w.
func NewEncoder(w io.Writer) *Encoder { return &Encoder{w: w} }

// WriteField encodes f and writes it to the Encoder's writer in one
// Write, after the section's prefix if f is the section's first field.
func (e *Encoder) WriteField(f HeaderField) error {
	if e.st == nil {
		e.st = encoders.Get().(*encodeState)
	}
	st := e.st
	st.buf = st.buf[:0]
	if !e.wrotePrefix {
		// With no table, a section's prefix is two zero bytes.
		st.buf = append(st.buf, 0, 0)
		e.wrotePrefix = true
	}
	st.buf = st.enc.AppendField(st.buf, mdelem.From(mdelem.BorrowString(f.Name), mdelem.BorrowString(f.Value)))
	out := st.buf
	_, err := e.w.Write(out)
	return err
}

// Close ends the section: the next WriteField starts a new one.
func (e *Encoder) Close() error {
	e.wrotePrefix = false
	if st := e.st; st != nil {
		e.st = nil
		if cap(st.buf) <= 64<<10 {
			encoders.Put(st)
		}
	}
	return nil
}
