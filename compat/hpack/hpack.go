package hpack

import (
	"fmt"

	mhpack "github.com/metapack/metapack/hpack"
)

// A DecodingError is something the spec defines as a decoding error.
type DecodingError struct {
	Err error
}

func (de DecodingError) Error() string {
	return fmt.Sprintf("decoding error: %v", de.Err)
}

// An InvalidIndexError is returned when an encoder references a table
// entry before the static table or after the end of the dynamic table.
type InvalidIndexError int

func (e InvalidIndexError) Error() string {
	return fmt.Sprintf("invalid indexed representation index %d", int(e))
}

// ErrStringLength is returned by Decoder.Write, Decoder.Close and
// Decoder.DecodeFull when the max string length (as configured by
// Decoder.SetMaxStringLength) would be violated. It is the same value as
// metapack's hpack.ErrStringLength.
var ErrStringLength = mhpack.ErrStringLength

// ErrInvalidHuffman is returned for errors found decoding Huffman-encoded
// strings. It is the same value as metapack's hpack.ErrInvalidHuffman;
// the drop-in returns it as it is, never wrapped.
var ErrInvalidHuffman = mhpack.ErrInvalidHuffman

// A HeaderField is a name-value pair. Both the name and value are
// treated as opaque sequences of octets.
type HeaderField struct {
	Name, Value string

	// Sensitive means that this header field should never be
	// indexed.
	Sensitive bool
}

// IsPseudo reports whether the header field is an http2 pseudo header.
// That is, it reports whether it starts with a colon.
// It is not otherwise guaranteed to be a valid pseudo header field,
// though.
func (hf HeaderField) IsPseudo() bool {
	return len(hf.Name) != 0 && hf.Name[0] == ':'
}

func (hf HeaderField) String() string {
	var suffix string
	if hf.Sensitive {
		suffix = " (sensitive)"
	}
	return fmt.Sprintf("header field %q = %q%s", hf.Name, hf.Value, suffix)
}

// Size returns the size of an entry per RFC 7541 section 4.1: the name's
// and the value's lengths plus 32. Like x/net's, it wraps around for
// strings whose lengths add up past 2^32-33, which no header block can
// carry.
func (hf HeaderField) Size() uint32 {
	return uint32(len(hf.Name) + len(hf.Value) + 32)
}
