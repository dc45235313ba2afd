package hpack

import (
	xhpack "golang.org/x/net/http2/hpack"

	mhpack "github.com/metapack/metapack/hpack"
)

// These are x/net's own types, so that fields and errors pass unchanged
// between the drop-in and code that still uses x/net's http2 package.
type (
	// HeaderField is one header: a name, a value, and whether it must
	// never be indexed (Sensitive). IsPseudo, Size and String are x/net's.
	HeaderField = xhpack.HeaderField
	// DecodingError reports a malformed header block (RFC 7541 §2.3.3,
	// §5, §6). Err says what was wrong; see the package doc for its
	// messages.
	DecodingError = xhpack.DecodingError
	// InvalidIndexError is the index of an indexed field or name that is
	// in neither table (RFC 7541 §2.3.3), found in a DecodingError's Err.
	// An index above 2^31-1 is reported as 2^31-1.
	InvalidIndexError = xhpack.InvalidIndexError
)

// ErrStringLength reports a name or value longer than the limit set with
// Decoder.SetMaxStringLength. It is metapack's hpack.ErrStringLength,
// unwrapped.
var ErrStringLength = mhpack.ErrStringLength

// ErrInvalidHuffman reports a Huffman-coded string that RFC 7541 §5.2
// forbids: a code for EOS, or padding that is too long or not all ones.
// It is metapack's hpack.ErrInvalidHuffman, unwrapped.
var ErrInvalidHuffman = mhpack.ErrInvalidHuffman
