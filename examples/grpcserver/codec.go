package main

import (
	"errors"
	"fmt"
	"strings"
)

// headerCodec is one connection's HPACK state in both directions: a
// decoder for the client's header blocks and an encoder for ours. The
// connection code is the same for every codec; only this interface
// differs, which is what makes the -codec A/B comparison fair.
type headerCodec interface {
	// decodeFragment decodes one HEADERS or CONTINUATION payload of the
	// block being received; last marks the block's final fragment. An
	// error for which isStreamError is true (a header list over the
	// limits) comes with the last fragment and leaves the decoder in sync;
	// any other error is a connection error of type COMPRESSION_ERROR.
	decodeFragment(frag []byte, last bool) error
	// blockErr returns the limit error the open block has reached so
	// far (a stream error), or nil; the block's last fragment returns it
	// too.
	blockErr() error
	// takeRequest validates the block just decoded as a request and
	// returns its header storage and the fields the server uses, which
	// stay valid until releaseRequest. On error nothing is kept.
	takeRequest() (any, reqInfo, error)
	// releaseRequest returns the storage of a request.
	releaseRequest(h any)
	// takeTrailers checks the block just decoded as request trailers
	// (no pseudo-header fields) and discards it.
	takeTrailers() error
	// discardBlock drops the block just decoded.
	discardBlock()

	// ackHeaderTableSize applies our SETTINGS_HEADER_TABLE_SIZE to the
	// decoder, once the peer has acknowledged it.
	ackHeaderTableSize(v uint32)
	// setPeerHeaderTableSize applies the peer's SETTINGS_HEADER_TABLE_SIZE
	// to the encoder.
	setPeerHeaderTableSize(v uint32)

	// appendGRPCHeaders appends the block of a gRPC response's headers:
	// :status 200, content-type, and the request's echoed metadata
	// (x-echo-* and x-request-id). With status >= 0 it is a
	// Trailers-Only response and carries grpc-status and grpc-message.
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
	method, path, contentType, grpcEncoding, grpcTimeout string
	hasTimeout                                           bool
	contentLength                                        int64 // -1 when absent
}

// Request validation errors shared by both codecs (beyond those of
// grpcmeta.ValidateRequest).
var (
	errEmptyPath        = errors.New("empty :path")
	errBadContentLength = errors.New("malformed content-length")
	errPseudoInTrailers = errors.New("pseudo-header field in trailers")
)

// echoed reports whether the server sends a request header back as
// response metadata.
func echoed(name string) bool {
	return strings.HasPrefix(name, "x-echo-") || name == "x-request-id"
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

// codecLimits are the header limits a codec enforces on the client's
// header blocks. A header list within maxListSize (our advertised
// SETTINGS_MAX_HEADER_LIST_SIZE) and maxFields always decodes, whatever
// the length of its strings; a list over either is a stream error.
// maxBlockBytes is the connection's byte budget for one header block on
// the wire, which bounds the length of any string in it.
type codecLimits struct {
	maxListSize, maxFields, maxBlockBytes int
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

// grpcStatusStrings are the decimal forms of the gRPC status codes.
var grpcStatusStrings = [...]string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16"}

func grpcStatusString(code int) string {
	if code >= 0 && code < len(grpcStatusStrings) {
		return grpcStatusStrings[code]
	}
	return fmt.Sprint(code)
}

// encodeGRPCMessage percent-encodes a grpc-message value as the gRPC
// HTTP/2 protocol asks: bytes outside printable ASCII, and '%', become
// %XX.
func encodeGRPCMessage(msg string) string {
	clean := true
	for i := 0; i < len(msg); i++ {
		if c := msg[i]; c < ' ' || c > '~' || c == '%' {
			clean = false
			break
		}
	}
	if clean {
		return msg
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(msg); i++ {
		c := msg[i]
		if c < ' ' || c > '~' || c == '%' {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
