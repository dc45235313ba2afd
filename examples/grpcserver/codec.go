package main

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/metapack/metapack/grpcmeta"
	"github.com/metapack/metapack/mdelem"
	"golang.org/x/net/http2"
)

// headerCodec is one connection's HPACK state in both directions: a
// decoder for the client's header blocks and an encoder for ours. The
// connection code is the same for every codec; only this interface
// differs, which is what makes the -codec A/B comparison fair.
type headerCodec interface {
	// setFramer prepares the connection's Framer for the codec's read
	// path, before the first frame is read: metapackCodec leaves its
	// ReadMetaHeaders nil, so that ReadFrame returns each HEADERS frame
	// and readHeaders reads the block's CONTINUATION frames with a
	// headerblock.Reader; xnetCodec sets it to x/net's hpack.Decoder, so
	// that ReadFrame reads and decodes the whole block itself and returns
	// an *http2.MetaHeadersFrame, as in x/net's own server. The header
	// list limit is fr.MaxHeaderListSize either way.
	setFramer(fr *http2.Framer)
	// readHeaders takes the header block that f, a frame ReadFrame
	// returned, starts: an *http2.HeadersFrame, whose CONTINUATION
	// frames it reads from fr (metapackCodec), or an
	// *http2.MetaHeadersFrame that the Framer has read and decoded, with
	// readErr, the error ReadFrame returned with it (xnetCodec). The next
	// takeRequest, takeTrailers or discardBlock acts on the block. The
	// field count is the codec's (codecLimits).
	//
	// It runs on the connection's reader goroutine without conn.mu, as it
	// may wait for the client's CONTINUATION frames: it touches only the
	// decoder and the block being decoded, which nothing else touches but
	// ackHeaderTableSize, on the same goroutine.
	//
	// truncated reports that the list went over fr.MaxHeaderListSize. An
	// error is
	//   - an http2.StreamError with ErrCodeEnhanceYourCalm: the list is
	//     over the limits (Cause headerblock.ErrListTooLarge or
	//     errTooManyFields), the block decoded to its end, the decoder in
	//     sync;
	//   - an http2.StreamError with ErrCodeProtocol: an invalid field or
	//     pseudo-header field (RFC 9113 §8.2.1), the decoder in sync (x/net's
	//     Framer returns this one from ReadFrame, with no frame: see
	//     conn.readHeaderBlock);
	//   - an http2.ConnectionError: COMPRESSION_ERROR for a block that
	//     does not decode; with metapackCodec, ENHANCE_YOUR_CALM for one
	//     over the frame or byte bound; with xnetCodec, PROTOCOL_ERROR
	//     where x/net's Framer ends the connection (a CONTINUATION frame
	//     after the list went over the limit or after an invalid field, a
	//     fragment over twice what is left of the list size); errorDetail
	//     gives the reason;
	//   - an error of fr's, from reading a CONTINUATION frame.
	// On error no block is kept.
	readHeaders(fr *http2.Framer, f http2.Frame, readErr error) (truncated bool, err error)
	// errorDetail returns the reason for the connection error the last
	// readHeaders returned, when the codec knows it, or nil, for the
	// GOAWAY frame's debug data.
	errorDetail() error
	// takeRequest validates the block just read as a request and
	// returns its header storage and the fields the server uses, which
	// stay valid until releaseRequest. On error nothing is kept.
	takeRequest() (any, reqInfo, error)
	// releaseRequest returns the storage of a request.
	releaseRequest(h any)
	// takeTrailers checks the block just read as request trailers
	// (no pseudo-header fields) and discards it.
	takeTrailers() error
	// discardBlock drops the block just read.
	discardBlock()

	// ackHeaderTableSize applies our SETTINGS_HEADER_TABLE_SIZE to the
	// decoder, once the peer has acknowledged it.
	ackHeaderTableSize(v uint32)
	// setPeerHeaderTableSize applies the peer's SETTINGS_HEADER_TABLE_SIZE
	// to the encoder.
	setPeerHeaderTableSize(v uint32)

	// eachMetadata calls fn with each regular (not pseudo-header) field
	// of req, in order; name and value are views valid only during fn.
	eachMetadata(req any, fn func(name, value string))

	// appendGRPCHeaders appends the block of a gRPC response's headers:
	// :status 200, content-type, and the request's echoed metadata
	// (x-echo-* and x-request-id; binary ones decoded and re-encoded, see
	// eachBinary). With status >= 0 it is a Trailers-Only response and
	// carries grpc-status and grpc-message (msg, which the codec
	// percent-encodes).
	appendGRPCHeaders(dst []byte, req any, status int, msg string) []byte
	// echoSize returns the header list size (name + value + 32 per
	// field) of the metadata appendGRPCHeaders echoes from req.
	echoSize(req any) int
	// appendGRPCTrailers appends the block of a gRPC response's trailers.
	appendGRPCTrailers(dst []byte, status int, msg string) []byte
	// appendTextHeaders appends the block of a plain-text response.
	appendTextHeaders(dst []byte, status int, contentLength int) []byte
}

// reqInfo holds the request fields the server acts on. Its strings point
// into the request's header storage: valid until releaseRequest.
type reqInfo struct {
	method, path, grpcEncoding, grpcTimeout string
	contentType                             grpcmeta.ContentType // ContentTypeOther when absent
	coding                                  grpcmeta.Coding      // grpc-encoding's, when hasEncoding
	hasEncoding, hasTimeout                 bool                 // grpc-encoding (not empty), grpc-timeout present
	contentLength                           int64                // -1 when absent
}

// Request validation errors shared by both codecs (beyond those of
// grpcmeta.ValidateRequest).
var (
	errEmptyPath        = errors.New("empty :path")
	errBadContentLength = errors.New("malformed content-length")
	errPseudoInTrailers = errors.New("pseudo-header field in trailers")
	// errTooManyFields is the Cause of the stream error for a header list
	// of more than MaxHeaderFields fields.
	errTooManyFields = errors.New("header list of more than MaxHeaderFields fields")
)

// listError is the stream error of a header list over the limits.
func listError(id uint32, cause error) error {
	return http2.StreamError{StreamID: id, Code: http2.ErrCodeEnhanceYourCalm, Cause: cause}
}

// echoed reports whether the server sends a request header back as
// response metadata.
func echoed(name string) bool {
	return strings.HasPrefix(name, "x-echo-") || name == "x-request-id"
}

// eachBinary reads the value v of the binary metadata field name (one
// whose name ends in "-bin") as the gRPC protocol asks a receiver to:
// split at ',' (the values of one name that an intermediary joined), each
// part base64, padded or not (grpcmeta.DecodeBinary). It calls fn
// with the bytes each part encodes, in dec, which it reuses and returns.
//
// A part that is not base64 is dropped: the server neither echoes it nor
// fails the call. The protocol does not say what a receiver does with a
// -bin value that does not decode; for an ASCII-Value outside its range
// it says implementations must not error over a value HTTP allows, and
// may throw it away, and a -bin value that is not base64 is such a value.
// (grpc-go's server fails such a call with INTERNAL instead.)
func eachBinary(dec []byte, name, v string, fn func(dec []byte)) []byte {
	for {
		part, rest, more := strings.Cut(v, ",")
		var err error
		dec, err = grpcmeta.DecodeBinary(dec[:0], mdelem.From(mdelem.BorrowString(name), mdelem.BorrowString(part)))
		if err == nil {
			fn(dec)
		}
		if !more {
			return dec
		}
		v = rest
	}
}

// echoFieldSize is the header list size of what the response echoes of
// the request field name: value (name + value + 32 per field): the field
// as it is, or for a binary one, the fields its valid parts become,
// re-encoded without padding. dec is eachBinary's.
func echoFieldSize(dec []byte, name, value string) ([]byte, int) {
	if !grpcmeta.IsBinary(name) {
		return dec, fieldSize(name, value)
	}
	n := 0
	dec = eachBinary(dec, name, value, func(d []byte) {
		n += len(name) + base64.RawStdEncoding.EncodedLen(len(d)) + 32
	})
	return dec, n
}

// parseContentLength parses a content-length value: ASCII digits only.
func parseContentLength(v string) (int64, error) {
	if v == "" || len(v) > 18 {
		return 0, errBadContentLength
	}
	var n int64
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c < '0' || c > '9' {
			return 0, errBadContentLength
		}
		n = n*10 + int64(c-'0')
	}
	return n, nil
}

// Codec names for the -codec flag.
const (
	codecMetapack = "metapack"
	codecXnet     = "xnet"
)

// codecLimits are the limits a codec enforces on the client's header
// blocks, beside the header list size, which is the Framer's
// MaxHeaderListSize (our advertised SETTINGS_MAX_HEADER_LIST_SIZE). A
// list within it and within maxFields always decodes, whatever the length
// of its strings. With metapackCodec a list over either is a stream error,
// however many frames its block takes, and maxBlockBytes and
// maxBlockFrames bound one header block on the wire (a connection error
// past them), and so the length of any string in it. xnetCodec is x/net's
// read path as it is: it counts maxFields once the block is read, and
// x/net's Framer has no bounds of the kind (see xnetCodec).
type codecLimits struct {
	maxFields, maxBlockBytes, maxBlockFrames int
}

// newCodecFunc returns the constructor of the named codec.
func newCodecFunc(name string, lim codecLimits) (func() headerCodec, error) {
	switch name {
	case codecMetapack, "":
		return func() headerCodec { return newMetapackCodec(lim) }, nil
	case codecXnet:
		return func() headerCodec { return newXnetCodec(lim) }, nil
	}
	return nil, fmt.Errorf("unknown codec %q (want %s or %s)", name, codecMetapack, codecXnet)
}

// The status codes the server names (google.golang.org/grpc/codes).
const (
	codeUnknown         = 2
	codeUnauthenticated = 16
)

// statusStrings are the decimal forms of the status codes gRPC defines,
// for the xnet codec, whose encoder takes strings.
var statusStrings = func() (s [codeUnauthenticated + 1]string) {
	for c := range s {
		s[c] = strconv.Itoa(c)
	}
	return s
}()

func statusString(code int) string {
	if code >= 0 && code < len(statusStrings) {
		return statusStrings[code]
	}
	return strconv.FormatUint(uint64(uint32(code)), 10)
}
