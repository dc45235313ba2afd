package hpack

import (
	"errors"
	"fmt"
	"strings"
)

// ErrInvalidHuffman reports Huffman-encoded data that RFC 7541 §5.2 forbids.
// Errors returned for such data match it with errors.Is; their message says
// why (an EOS symbol inside the string, or bad padding).
var ErrInvalidHuffman = errors.New("hpack: invalid Huffman-encoded data")

var (
	// errHuffmanEOS reports the EOS symbol inside a Huffman-encoded string.
	errHuffmanEOS = fmt.Errorf("%w: EOS symbol inside the string", ErrInvalidHuffman)
	// errHuffmanPadding reports padding longer than 7 bits, or padding that
	// is not a prefix of EOS (all ones).
	errHuffmanPadding = fmt.Errorf("%w: padding is longer than 7 bits or not all ones", ErrInvalidHuffman)
)

// ErrBlockOpen reports a call of Decode while a block fed to
// DecodeFragment is still open. The decoder stays usable, and the open
// block goes on with DecodeFragment.
var ErrBlockOpen = errors.New("hpack: Decode called while a fragmented block is open")

// ErrStringLength reports a string longer than the limit the caller set:
// from AppendHuffmanDecode as it is, and from a Decoder wrapped in a
// *DecodingError, a stream error.
var ErrStringLength = errors.New("hpack: string too long")

// Decoding errors, which a *DecodingError wraps (as it wraps
// ErrInvalidHuffman). Any of them poisons the Decoder: the peer's dynamic
// table can no longer be tracked, so HTTP/2 calls for COMPRESSION_ERROR.
var (
	ErrTruncated           = errors.New("hpack: header block ends inside a field")
	ErrIntegerOverflow     = errors.New("hpack: integer above 2^32-1 or with too many continuation bytes")
	ErrInvalidIndex        = errors.New("hpack: invalid table index")
	ErrSizeUpdateTooLarge  = errors.New("hpack: dynamic table size update above the advertised maximum")
	ErrSizeUpdateNotFirst  = errors.New("hpack: dynamic table size update after a header field")
	ErrTooManySizeUpdates  = errors.New("hpack: more than two dynamic table size updates")
	ErrSizeUpdateMissing   = errors.New("hpack: header block lacks the size update required after a lower SETTINGS_HEADER_TABLE_SIZE")
	ErrSizeUpdateNotLowest = errors.New("hpack: first size update above the lowest SETTINGS_HEADER_TABLE_SIZE since the last block")
	ErrDecoderPoisoned     = errors.New("hpack: decoder unusable after an earlier decoding error")
)

// Limit errors, which a *DecodingError wraps (or ErrStringLength) for a
// stream error: the decoder stays in sync, and a stream reset is enough.
var (
	ErrHeaderListSize = errors.New("hpack: header list larger than the limit")
	ErrFieldCount     = errors.New("hpack: more header fields than the limit")
)

// DecodingError is an error in a header block: the offset of the
// representation that failed, counted from the start of the block, and
// why (Err, one of the Err* values above). It is a stream error when Err
// is ErrHeaderListSize, ErrFieldCount or ErrStringLength (see
// IsStreamError), and a connection error otherwise.
type DecodingError struct {
	Offset int
	Err    error
	// Index is the index of an ErrInvalidIndex.
	Index uint64
	// Limit is, for ErrInvalidIndex, the number of entries the tables held
	// (61 static ones plus the dynamic table's), and for a stream error
	// the limit in force.
	Limit int
}

func (e *DecodingError) Error() string {
	reason := "malformed header block" // a DecodingError made without a reason
	if e.Err != nil {
		reason = strings.TrimPrefix(e.Err.Error(), "hpack: ")
	}
	switch {
	case e.Err == ErrInvalidIndex:
		return fmt.Sprintf("hpack: decoding error at byte %d: invalid index %d (the tables hold %d entries)", e.Offset, e.Index, e.Limit)
	case isLimit(e.Err):
		return fmt.Sprintf("hpack: %s (limit %d, first exceeded at byte %d)", reason, e.Limit, e.Offset)
	}
	return fmt.Sprintf("hpack: decoding error at byte %d: %s", e.Offset, reason)
}

func (e *DecodingError) Unwrap() error { return e.Err }

func isLimit(err error) bool {
	return err == ErrHeaderListSize || err == ErrFieldCount || err == ErrStringLength
}

// IsStreamError reports whether err leaves the decoder usable: a limit was
// exceeded, and a stream reset is enough. Every other decoding error calls
// for closing the connection with COMPRESSION_ERROR.
func IsStreamError(err error) bool {
	var de *DecodingError
	return errors.As(err, &de) && isLimit(de.Err)
}
