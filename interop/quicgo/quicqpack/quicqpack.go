// Package quicqpack drives github.com/quic-go/qpack, the QPACK codec of
// quic-go's HTTP/3 stack, the way quic-go's http3 package does, for the
// differential tests and benchmarks of package quicgo. quic-go/qpack has
// no dynamic table: its encoder uses the static table only and its decoder
// refuses any section that refers to a dynamic table.
//
// It is a package of its own so that code comparing the two codecs need not
// import two packages named qpack side by side.
package quicqpack

import (
	"bytes"
	"io"

	"github.com/quic-go/qpack"
)

// Version is the quic-go/qpack release this module requires.
const Version = "v0.6.0"

// Field is quic-go/qpack's header field: a name and a value.
type Field = qpack.HeaderField

// Decoder decodes field sections. Like quic-go's http3, use one per
// connection: it holds no state between sections.
type Decoder struct{ dec *qpack.Decoder }

// NewDecoder returns a Decoder.
func NewDecoder() *Decoder { return &Decoder{dec: qpack.NewDecoder()} }

// AppendFields decodes the field section and appends its fields to dst.
// On an error it returns dst with the fields decoded before it.
func (d *Decoder) AppendFields(dst []Field, section []byte) ([]Field, error) {
	next := d.dec.Decode(section)
	for {
		f, err := next()
		if err == io.EOF {
			return dst, nil
		}
		if err != nil {
			return dst, err
		}
		dst = append(dst, f)
	}
}

// Count decodes the field section and returns its number of fields and the
// sum of their names' and values' lengths, touching every field the way an
// HTTP/3 server reading the section would, and keeping none.
func (d *Decoder) Count(section []byte) (fields, size int, err error) {
	next := d.dec.Decode(section)
	for {
		f, err := next()
		if err == io.EOF {
			return fields, size, nil
		}
		if err != nil {
			return fields, size, err
		}
		fields++
		size += len(f.Name) + len(f.Value)
	}
}

// Encoder encodes field sections. Like quic-go's http3 request and response
// writers, it writes every section through one qpack.Encoder into one
// buffer that it resets before each section.
type Encoder struct {
	buf bytes.Buffer
	enc *qpack.Encoder
}

// NewEncoder returns an Encoder.
func NewEncoder() *Encoder {
	e := &Encoder{}
	e.enc = qpack.NewEncoder(&e.buf)
	return e
}

// Encode encodes fields as one field section. The bytes it returns are
// valid until the next call. quic-go/qpack writes nothing at all, not even
// the section prefix, for an empty list.
func (e *Encoder) Encode(fields []Field) ([]byte, error) {
	e.buf.Reset()
	for _, f := range fields {
		if err := e.enc.WriteField(f); err != nil {
			return nil, err
		}
	}
	if err := e.enc.Close(); err != nil {
		return nil, err
	}
	return e.buf.Bytes(), nil
}
