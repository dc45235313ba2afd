// Package qpack, in the module github.com/quic-go/qpack, forwards every
// name of quic-go/qpack v0.6.0 to github.com/metapack/metapack/compat/qpack,
// so that a program built on quic-go uses metapack's QPACK codec without
// a change to its code or to quic-go's.
//
// A program adopts it with two lines in its go.mod, with the paths of a
// checkout of metapack:
//
//	replace github.com/quic-go/qpack => /path/to/metapack/compat/qpack/forward
//	replace github.com/metapack/metapack => /path/to/metapack
//
// and then `go mod tidy`. Like quic-go/qpack, it uses QPACK's static table
// only; see compat/qpack's package doc for the few differences.
package qpack

import (
	"io"

	compat "github.com/metapack/metapack/compat/qpack"
)

// A HeaderField is a name-value pair.
type HeaderField = compat.HeaderField

// DecodeFunc returns the next field of a section, and io.EOF after the
// last.
type DecodeFunc = compat.DecodeFunc

// A Decoder decodes field sections.
type Decoder = compat.Decoder

// An Encoder encodes field sections, one field at a time.
type Encoder = compat.Encoder

// NewDecoder returns a Decoder.
func NewDecoder() *Decoder { return compat.NewDecoder() }

// NewEncoder returns an Encoder that writes to w.
func NewEncoder(w io.Writer) *Encoder { return compat.NewEncoder(w) }
