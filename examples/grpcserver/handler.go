package main

import (
	"encoding/binary"
	"strings"
	"unsafe"

	"github.com/metapack/metapack/mdelem"
)

// gRPC status codes used here.
const (
	codeOK                = 0
	codeDeadlineExceeded  = 4
	codeResourceExhausted = 8
	codeUnimplemented     = 12
	codeInternal          = 13
)

// isGRPC reports whether a request is a gRPC call: POST with content-type
// application/grpc, optionally followed by "+format" or ";params".
func isGRPC(info *reqInfo) bool {
	ct, ok := strings.CutPrefix(info.contentType, "application/grpc")
	return ok && info.method == "POST" && (ct == "" || ct[0] == '+' || ct[0] == ';')
}

// helloBody is the plain-text page, for curl.
const helloBody = "Hello from the metapack gRPC example server.\n" +
	"gRPC: POST /echo.Echo/Echo (unary, any message; x-echo-* and x-request-id metadata come back).\n"

// respond answers a request: the gRPC echo method or the plain-text page.
func (c *conn) respond(st *stream) error {
	if st.grpc {
		c.respondGRPC(st)
	} else {
		c.respondText(st)
	}
	return nil
}

func (c *conn) respondText(st *stream) {
	status, body := 200, helloBody
	switch st.info.path {
	case "/", "/hello", "/index.html":
	default:
		status, body = 404, "not found\n"
	}
	head := st.info.method == "HEAD"
	if !c.peerAccepts(textHeadersSize(status, len(body))) {
		c.resetTooLarge(st)
		return
	}
	c.hbuf = c.codec.appendTextHeaders(c.hbuf[:0], status, len(body))
	c.releaseHeaders(st)
	if head {
		body = ""
	}
	c.sendResponse(st, c.hbuf, unsafe.Slice(unsafe.StringData(body), len(body)), false)
}

// respondGRPC answers a gRPC call. The echo method replies with the
// request's message, framed as it came; anything else gets a
// Trailers-Only response with an error status.
func (c *conn) respondGRPC(st *stream) {
	code, msg := checkEcho(st)
	if code == codeOK {
		code = -1 // headers, then the reply and trailers
	}
	echo, code, msg, ok := c.fitGRPCHeaders(st.hdr, code, msg)
	if !ok {
		c.resetTooLarge(st)
		return
	}
	if code >= 0 {
		c.hbuf = c.codec.appendGRPCHeaders(c.hbuf[:0], echo, code, msg)
		c.releaseHeaders(st)
		c.sendResponse(st, c.hbuf, nil, false)
		return
	}
	c.hbuf = c.codec.appendGRPCHeaders(c.hbuf[:0], echo, -1, "")
	c.releaseHeaders(st)
	st.status, st.msg = codeOK, ""
	// The reply is the request's own length-prefixed message: st.body
	// stays with the stream until the stream closes.
	c.sendResponse(st, c.hbuf, st.body, true)
}

// checkEcho validates a call to the echo method.
func checkEcho(st *stream) (int, string) {
	info := &st.info
	if !strings.HasSuffix(info.path, "/Echo") || !strings.HasPrefix(info.path, "/") {
		return codeUnimplemented, "unknown method " + info.path
	}
	if st.large {
		return codeResourceExhausted, "request message larger than the server's limit"
	}
	if info.hasTimeout {
		d, err := mdelem.ParseTimeout(unsafe.Slice(unsafe.StringData(info.grpcTimeout), len(info.grpcTimeout)))
		if err != nil {
			return codeInternal, "malformed grpc-timeout: " + info.grpcTimeout
		}
		if d <= 0 {
			return codeDeadlineExceeded, "deadline exceeded"
		}
	}
	b := st.body
	if len(b) < 5 {
		return codeInternal, "no request message"
	}
	switch b[0] {
	case 0:
	case 1:
		if info.grpcEncoding == "" || info.grpcEncoding == "identity" {
			return codeInternal, "compressed flag set without grpc-encoding"
		}
		return codeUnimplemented, "grpc-encoding " + info.grpcEncoding + " is not supported"
	default:
		return codeInternal, "bad message flags"
	}
	n := binary.BigEndian.Uint32(b[1:5])
	switch {
	case int64(n) > int64(len(b)-5):
		return codeInternal, "truncated request message"
	case int64(n) < int64(len(b)-5):
		return codeUnimplemented, "more than one request message for a unary method"
	}
	return codeOK, ""
}
