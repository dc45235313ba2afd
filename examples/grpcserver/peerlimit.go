package main

import (
	"fmt"
	"strconv"

	"github.com/metapack/metapack/grpcmeta"
	"golang.org/x/net/http2"
)

// The client's SETTINGS_MAX_HEADER_LIST_SIZE (RFC 9113 §6.5.2) bounds the
// header lists we send it, counted as name + value + 32 bytes per field. A
// list over it would make the client fail the stream or the connection,
// so we check before encoding (§10.5.1): a gRPC response whose echoed
// metadata would not fit becomes a trailers-only error without it, and a
// response that cannot fit at all is reset instead.

// fieldSize is a field's size in the header list.
func fieldSize(name, value string) int { return len(name) + len(value) + 32 }

// grpcHeadersSize is the size of a gRPC response's own header fields,
// without the echoed metadata; status >= 0 adds a trailers-only
// response's grpc-status and grpc-message.
func grpcHeadersSize(status int, msg string) int {
	n := fieldSize(":status", "200") + fieldSize("content-type", "application/grpc")
	if status >= 0 {
		n += grpcTrailersSize(status, msg)
	}
	return n
}

// grpcTrailersSize is the size of gRPC trailers: grpc-status, and
// grpc-message with msg percent-encoded, as grpcmeta.AppendStatusTrailers
// writes them.
func grpcTrailersSize(status int, msg string) int {
	var buf [128]byte // the encoded message, unless it is longer
	n := fieldSize("grpc-status", "") + len(strconv.AppendUint(buf[:0], uint64(status), 10))
	if msg != "" {
		n += fieldSize("grpc-message", "") + len(grpcmeta.AppendMessage(buf[:0], msg))
	}
	return n
}

// textHeadersSize is the size of a plain-text response's headers.
func textHeadersSize(status, contentLength int) int {
	return fieldSize(":status", fmt.Sprint(status)) + fieldSize("content-type", textContentType) +
		fieldSize("content-length", fmt.Sprint(contentLength))
}

// peerAccepts reports whether a header list of size bytes is within the
// client's SETTINGS_MAX_HEADER_LIST_SIZE (no limit until it sets one).
func (c *conn) peerAccepts(size int) bool {
	return c.peerMaxHeaderList < 0 || int64(size) <= c.peerMaxHeaderList
}

// fitGRPCHeaders decides what a gRPC response's first header block
// carries: the echoed metadata of req, or, if that would go over the
// client's limit, a trailers-only RESOURCE_EXHAUSTED error without it.
// status and msg are those of a trailers-only response (status -1 for
// headers followed by DATA). ok is false when not even the error fits:
// the stream must then be reset.
func (c *conn) fitGRPCHeaders(req any, status int, msg string) (echo any, st int, m string, ok bool) {
	if c.peerMaxHeaderList < 0 {
		return req, status, msg, true
	}
	size := grpcHeadersSize(status, msg)
	if req != nil {
		size += c.codec.echoSize(req)
	}
	if c.peerAccepts(size) {
		return req, status, msg, true
	}
	st, m = codeResourceExhausted, fmt.Sprintf("response header list of %d bytes over the client's SETTINGS_MAX_HEADER_LIST_SIZE %d", size, c.peerMaxHeaderList)
	return nil, st, m, c.peerAccepts(grpcHeadersSize(st, m))
}

// resetTooLarge resets a stream whose response headers cannot fit the
// client's limit.
func (c *conn) resetTooLarge(st *stream) {
	c.s.logf("grpcserver: %v: stream %d: response headers over the client's SETTINGS_MAX_HEADER_LIST_SIZE %d", c.nc.RemoteAddr(), st.id, c.peerMaxHeaderList)
	c.writeReset(st.id, http2.ErrCodeInternal)
	c.closeStream(st, errStreamDone)
}
