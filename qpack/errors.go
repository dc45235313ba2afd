package qpack

import (
	"errors"
	"fmt"
	"strings"
)

// ErrorCode is an HTTP/3 error code of RFC 9204 §6.
type ErrorCode uint64

// The error codes a connection closes with after a QPACK error.
const (
	ErrCodeDecompressionFailed ErrorCode = 0x0200 // QPACK_DECOMPRESSION_FAILED: a field section
	ErrCodeEncoderStream       ErrorCode = 0x0201 // QPACK_ENCODER_STREAM_ERROR: the peer's encoder stream
	ErrCodeDecoderStream       ErrorCode = 0x0202 // QPACK_DECODER_STREAM_ERROR: the peer's decoder stream
)

func (c ErrorCode) String() string {
	switch c {
	case ErrCodeDecompressionFailed:
		return "QPACK_DECOMPRESSION_FAILED"
	case ErrCodeEncoderStream:
		return "QPACK_ENCODER_STREAM_ERROR"
	case ErrCodeDecoderStream:
		return "QPACK_DECODER_STREAM_ERROR"
	case 0:
		return "stream error"
	}
	return fmt.Sprintf("error code %#x", uint64(c))
}

// ErrBlocked is what Decoder.Decode returns for a section that refers to
// dynamic table entries not yet received (RFC 9204 §2.1.2). It is not a
// failure: keep the section's bytes, and decode them again once
// Decoder.AppendUnblocked lists the stream.
var ErrBlocked = errors.New("qpack: field section blocked until the encoder stream brings its entries")

// Reasons, which an *Error wraps. The first group is
// QPACK_DECOMPRESSION_FAILED, the second QPACK_ENCODER_STREAM_ERROR, the
// third QPACK_DECODER_STREAM_ERROR; the limits are stream errors.
var (
	ErrTruncated          = errors.New("qpack: input ends inside a representation")
	ErrIntegerOverflow    = errors.New("qpack: integer above 2^62-1 or with too many continuation bytes")
	ErrInvalidHuffman     = errors.New("qpack: invalid Huffman-coded string")
	ErrInvalidStaticIndex = errors.New("qpack: static table index out of range")
	ErrInvalidIndex       = errors.New("qpack: reference to a dynamic table entry that is absent, evicted or at or past the Required Insert Count")
	ErrRequiredInserts    = errors.New("qpack: invalid Required Insert Count")
	ErrBase               = errors.New("qpack: Base below zero")
	ErrTooManyBlocked     = errors.New("qpack: more blocked streams than SETTINGS_QPACK_BLOCKED_STREAMS")
	ErrDecoderPoisoned    = errors.New("qpack: decoder unusable after an earlier connection error")

	ErrCapacity       = errors.New("qpack: dynamic table capacity above SETTINGS_QPACK_MAX_TABLE_CAPACITY")
	ErrEntryTooLarge  = errors.New("qpack: inserted entry larger than the dynamic table capacity")
	ErrPartialTooLong = errors.New("qpack: encoder instruction longer than the dynamic table capacity allows")

	ErrUnknownStream   = errors.New("qpack: acknowledgment of a section on a stream with none outstanding")
	ErrZeroIncrement   = errors.New("qpack: Insert Count Increment of zero")
	ErrIncrement       = errors.New("qpack: Insert Count Increment beyond the inserts sent")
	ErrEncoderPoisoned = errors.New("qpack: encoder unusable after an earlier decoder-stream error")

	ErrFieldSectionSize = errors.New("qpack: field section larger than SETTINGS_MAX_FIELD_SECTION_SIZE")
	ErrFieldCount       = errors.New("qpack: more fields than the limit")
	ErrStringLength     = errors.New("qpack: string longer than the limit")
)

// Error is a QPACK error: where it happened and why. Code is the HTTP/3
// error code to close the connection with, or 0 for a stream error (a
// limit; see IsStreamError). Offset counts bytes from the start of the
// field section, or for a stream error in the encoder or decoder stream,
// from the first byte of that stream.
type Error struct {
	Code     ErrorCode
	Offset   int64
	StreamID uint64 // the field section's stream; 0 for the other two
	Err      error  // the reason: one of the Err values above
	// Limit is a stream error's limit, or for ErrInvalidIndex and
	// ErrInvalidStaticIndex the index.
	Limit uint64
}

func (e *Error) Error() string {
	reason := "malformed input"
	if e.Err != nil {
		reason = strings.TrimPrefix(e.Err.Error(), "qpack: ")
	}
	where := "encoder stream"
	switch e.Code {
	case ErrCodeDecompressionFailed, 0:
		where = fmt.Sprintf("field section of stream %d", e.StreamID)
	case ErrCodeDecoderStream:
		where = "decoder stream"
	}
	switch e.Err {
	case ErrInvalidIndex, ErrInvalidStaticIndex:
		reason = fmt.Sprintf("%s (index %d)", reason, e.Limit)
	case ErrFieldSectionSize, ErrFieldCount, ErrStringLength:
		reason = fmt.Sprintf("%s (limit %d)", reason, e.Limit)
	}
	return fmt.Sprintf("qpack: %s: byte %d of the %s: %s", e.Code, e.Offset, where, reason)
}

func (e *Error) Unwrap() error { return e.Err }

// IsStreamError reports whether err is a limit a legitimate peer may
// reach: reset the stream (or answer 431); the connection and the dynamic
// table are unaffected. Any other *Error closes the connection with its
// Code.
func IsStreamError(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == 0
}
