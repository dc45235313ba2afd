package main

import (
	"errors"
	"io"
	"strings"

	"github.com/metapack/metapack/grpcmeta"
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

// echoService is the path prefix of the echo service's methods.
const echoService = "/echo.Echo/"

// isGRPC reports whether a request is a gRPC call: POST with content-type
// application/grpc, optionally followed by "+format" or ";params"
// (grpcmeta.Value.ContentType).
func isGRPC(info *reqInfo) bool {
	return info.method == "POST" && info.contentType != grpcmeta.ContentTypeOther
}

// helloBody is the plain-text page, for curl.
const helloBody = "Hello from the metapack gRPC example server.\n" +
	"gRPC: POST /echo.Echo/Echo (unary), /echo.Echo/ServerStreamingEcho, /echo.Echo/ClientStreamingEcho,\n" +
	"/echo.Echo/BidirectionalStreamingEcho (any messages; x-echo-* and x-request-id metadata come back;\n" +
	"x-echo-status and x-echo-status-message choose the status a call that succeeds ends with).\n"

// serveText answers a request that is not a gRPC call, once the request
// has ended (its body is dropped): the text page, 404, or 415 for a gRPC
// method called without a gRPC content-type.
func serveText(st *stream) {
	info := &st.info
	status, body := 200, helloBody
	switch {
	case strings.HasPrefix(info.path, echoService):
		status, body = 415, "unsupported media type: gRPC methods take content-type application/grpc\n"
	case info.path == "/", info.path == "/hello", info.path == "/index.html":
	default:
		status, body = 404, "not found\n"
	}
	if st.waitRequestEnd() == nil {
		st.respondText(status, body, info.method == "HEAD")
	}
}

// echoMethod is one method of the echo service; it returns the call's
// status.
type echoMethod func(st *stream) (int, string)

var echoMethods = map[string]echoMethod{
	"Echo":                       unaryEcho,
	"ServerStreamingEcho":        serverStreamingEcho,
	"ClientStreamingEcho":        clientStreamingEcho,
	"BidirectionalStreamingEcho": bidiStreamingEcho,
}

// serverStreamReplies is how many replies ServerStreamingEcho sends.
const serverStreamReplies = 3

// serveGRPC runs a gRPC call to completion.
func serveGRPC(st *stream) {
	path := st.info.path
	m := echoMethods[strings.TrimPrefix(path, echoService)]
	switch {
	case !strings.HasPrefix(path, echoService) || m == nil:
		st.finish(codeUnimplemented, "unknown method "+path)
	case st.badTimeout:
		st.finish(codeInternal, "malformed grpc-timeout: "+st.info.grpcTimeout)
	default:
		// Read before the method runs: the request's headers are gone
		// once the response's are sent.
		code, msg, asked := requestedStatus(st)
		c, text := m(st)
		if asked && c == codeOK {
			c, text = code, msg
		}
		st.finish(c, text)
	}
}

// Request metadata that chooses the status of a call that succeeds,
// for clients that test how statuses travel: x-echo-status, a grpc-status
// value (one that is not decimal is UNKNOWN, as grpcmeta.Value.Status
// says), and x-echo-status-message, the status message percent-encoded
// as in grpc-message (decoded leniently: a malformed '%' sequence stays
// as it is). Either one alone makes the status UNKNOWN or the message
// empty. Both are x-echo-* fields, so they are echoed too.
const (
	hdrEchoStatus        = "x-echo-status"
	hdrEchoStatusMessage = "x-echo-status-message"
)

// requestedStatus returns the status the request's x-echo-status and
// x-echo-status-message ask for, and whether they ask for one. The
// message is a copy: it outlives the request's headers.
func requestedStatus(st *stream) (code int, msg string, asked bool) {
	code = codeUnknown
	var dec []byte
	st.eachMetadata(func(name, value string) {
		switch name {
		case hdrEchoStatus:
			c, _ := grpcmeta.ValueOf(mdelem.StrOf(mdelem.BorrowString(value))).Status()
			code, asked = int(c), true
		case hdrEchoStatusMessage:
			dec, asked = grpcmeta.DecodeMessage(dec[:0], value), true
		}
	})
	return code, string(dec), asked
}

// recv reads the next message and checks its flags; on failure it returns
// the status to end the call with (code -1 at the request's end).
func recv(st *stream) (msg []byte, code int, text string) {
	msg, err := st.recvMsg()
	switch {
	case err == nil:
	case err == io.EOF:
		return nil, -1, ""
	case errors.Is(err, errMsgTooLarge), errors.Is(err, errMemBusy):
		return nil, codeResourceExhausted, err.Error()
	case errors.Is(err, errMsgTruncated):
		return nil, codeInternal, err.Error()
	default: // the stream has ended: its status is sent, or cannot be
		return nil, codeInternal, err.Error()
	}
	switch msg[0] {
	case 0:
		return msg, codeOK, ""
	case 1:
		st.releaseMsg(msg)
		if !st.info.hasEncoding || st.info.coding == grpcmeta.CodingIdentity {
			return nil, codeInternal, "compressed flag set without grpc-encoding"
		}
		return nil, codeUnimplemented, "grpc-encoding " + st.info.grpcEncoding + " is not supported"
	}
	st.releaseMsg(msg)
	return nil, codeInternal, "bad message flags"
}

// send echoes msg and releases it.
func send(st *stream, msg []byte) (int, string) {
	err := st.sendMsg(msg)
	st.releaseMsg(msg)
	if err != nil {
		return codeInternal, err.Error()
	}
	return codeOK, ""
}

// unaryEcho replies with the request's one message.
func unaryEcho(st *stream) (int, string) {
	msg, code, text := recv(st)
	if msg == nil {
		if code < 0 {
			return codeInternal, "no request message"
		}
		return code, text
	}
	more, code, text := recv(st)
	if more != nil {
		st.releaseMsg(more)
		st.releaseMsg(msg)
		return codeUnimplemented, "more than one request message for a unary method"
	}
	if code >= 0 {
		st.releaseMsg(msg)
		return code, text
	}
	return send(st, msg)
}

// serverStreamingEcho replies to one message with serverStreamReplies
// copies of it.
func serverStreamingEcho(st *stream) (int, string) {
	msg, code, text := recv(st)
	if msg == nil {
		if code < 0 {
			return codeInternal, "no request message"
		}
		return code, text
	}
	defer st.releaseMsg(msg)
	for range serverStreamReplies {
		if err := st.sendMsg(msg); err != nil {
			return codeInternal, err.Error()
		}
	}
	return codeOK, ""
}

// clientStreamingEcho replies once, after the client's last message, with
// the last message it sent (an empty message if it sent none).
func clientStreamingEcho(st *stream) (int, string) {
	var last []byte
	for {
		msg, code, text := recv(st)
		if msg == nil {
			if code >= 0 {
				if last != nil {
					st.releaseMsg(last)
				}
				return code, text
			}
			break
		}
		if last != nil {
			st.releaseMsg(last)
		}
		last = msg
	}
	if last == nil {
		if err := st.sendMsg([]byte{0, 0, 0, 0, 0}); err != nil {
			return codeInternal, err.Error()
		}
		return codeOK, ""
	}
	return send(st, last)
}

// bidiStreamingEcho echoes each message as it arrives.
func bidiStreamingEcho(st *stream) (int, string) {
	for {
		msg, code, text := recv(st)
		if msg == nil {
			if code < 0 {
				return codeOK, ""
			}
			return code, text
		}
		if code, text := send(st, msg); code != codeOK {
			return code, text
		}
	}
}
