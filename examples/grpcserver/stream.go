package main

import (
	"context"
	"errors"
	"sync"
	"time"

	"golang.org/x/net/http2"
)

type streamState uint8

const (
	// stateOpen: request headers received, more DATA (or trailers) may
	// follow.
	stateOpen streamState = iota
	// stateHalfClosedRemote: the client has sent END_STREAM.
	stateHalfClosedRemote
)

// stream is a client-initiated stream, in conn.streams from its request
// headers until our side of it ends (the response's END_STREAM, or a
// reset either way). Its handler goroutine may outlive that: it sees
// closed set and its context cancelled. Fields are guarded by conn.mu.
type stream struct {
	c    *conn
	id   uint32
	cond *sync.Cond // on conn.mu: signalled on any change the handler may wait for

	ctx        context.Context // cancelled when the stream ends, at its deadline, or with the connection
	cancel     context.CancelCauseFunc
	timer      *time.Timer // from grpc-timeout: ends the call at its deadline
	expired    bool        // the deadline has passed
	badTimeout bool        // grpc-timeout did not parse

	state streamState
	grpc  bool
	hdr   any // the codec's request header storage, until the response headers are sent
	info  reqInfo

	in         []byte // received request DATA; in[inOff:] is not yet consumed by the handler
	inOff      int
	recvd      int64 // request body bytes received
	recvWindow int64 // how much the client may still send on the stream
	target     int64 // the stream window we keep up (conn_data.go)

	sendWindow  int64 // how much we may still send on the stream
	headersSent bool
	closed      bool  // our side has ended: out of conn.streams
	held        int64 // message memory the handler holds (budget.go)
	waitingMem  bool  // the handler waits for message memory
}

func (c *conn) newStream(id uint32, hdr any, info reqInfo) *stream {
	st := &stream{c: c, id: id, hdr: hdr, info: info, state: stateOpen}
	st.cond = sync.NewCond(&c.mu)
	st.grpc = isGRPC(&info)
	st.recvWindow = int64(c.cfg.InitialWindowSize)
	st.target = st.recvWindow
	st.sendWindow = c.peerInitWindow
	st.ctx, st.cancel = context.WithCancelCause(c.ctx)
	if info.hasTimeout && st.grpc {
		if d, err := parseTimeout(info.grpcTimeout); err != nil {
			st.badTimeout = true
		} else {
			// A plain timer, not context.WithTimeout and AfterFunc: at
			// the deadline it ends the call with DEADLINE_EXCEEDED, and
			// that cancels the handler's context with cause
			// context.DeadlineExceeded.
			st.expired = d <= 0
			st.timer = time.AfterFunc(max(d, 0), func() {
				c.mu.Lock()
				st.expired = true
				st.finishLocked(codeDeadlineExceeded, "deadline exceeded")
				c.kick()
				c.mu.Unlock()
			})
		}
	}
	c.streams[id] = st
	c.live.streamsChanged(len(c.streams))
	return st
}

// endRequest handles the end of a request (END_STREAM received).
func (c *conn) endRequest(st *stream) error {
	st.state = stateHalfClosedRemote
	if cl := st.info.contentLength; cl >= 0 && st.recvd != cl {
		return streamError(st.id, http2.ErrCodeProtocol, errors.New("DATA length differs from content-length"))
	}
	st.cond.Broadcast()
	return nil
}

// closeStream ends our side of a stream: it leaves conn.streams, its
// context is cancelled with cause, and the window of its unread DATA goes
// back to the connection. It writes nothing itself.
func (c *conn) closeStream(st *stream, cause error) {
	if st.closed {
		return
	}
	st.closed = true
	delete(c.streams, st.id)
	if st.pastDeadline() {
		cause = context.DeadlineExceeded
	}
	st.cancel(cause)
	if st.timer != nil {
		st.timer.Stop()
	}
	c.releaseHeaders(st)
	c.consumed(nil, int64(st.unread()))
	st.in, st.inOff = nil, 0
	st.cond.Broadcast()
	c.live.streamsChanged(len(c.streams))
	c.maybeFinishDrain()
}

func (c *conn) releaseHeaders(st *stream) {
	if st.hdr != nil {
		c.codec.releaseRequest(st.hdr)
		st.hdr = nil
	}
}

// startHandler runs the stream's handler in a goroutine of its own.
func (c *conn) startHandler(st *stream) {
	c.handlers.Add(1)
	c.s.activeHandlers.Add(1)
	go func() {
		defer c.handlers.Done()
		defer c.s.activeHandlers.Add(-1)
		if st.grpc {
			serveGRPC(st)
		} else {
			serveText(st)
		}
		c.mu.Lock()
		// A handler that returns without a status gets INTERNAL.
		st.finishLocked(codeInternal, "handler returned without a status")
		c.kick()
		c.mu.Unlock()
	}()
}

// errOf is the error a handler's operation returns once its stream ended.
// A stream past its deadline ends here with DEADLINE_EXCEEDED if the
// deadline's own callback has not ended it yet.
func (st *stream) errOf() error {
	if st.c.closing {
		return errConnClosed
	}
	if !st.closed && st.pastDeadline() {
		st.finishLocked(codeDeadlineExceeded, "deadline exceeded")
	}
	if st.closed {
		if err := context.Cause(st.ctx); err != nil {
			return err
		}
		return errStreamDone
	}
	return nil
}

// waitConn waits on the stream's cond for a connection-level resource.
func (st *stream) waitConn() {
	st.c.outWaiters++
	st.cond.Wait()
	st.c.outWaiters--
}

// writeGRPCHeaders sends a gRPC response's headers with the echoed
// metadata, unless they cannot fit the client's header list limit: the
// stream then ends with a trailers-only error, and the error is returned.
func (st *stream) writeGRPCHeaders() error {
	c := st.c
	echo, code, msg, ok := c.fitGRPCHeaders(st.hdr, -1, "")
	if !ok {
		c.resetTooLarge(st)
		return errStreamDone
	}
	if code >= 0 {
		st.writeTrailersOnly(echo, code, msg)
		return errStreamDone
	}
	c.hbuf = c.codec.appendGRPCHeaders(c.hbuf[:0], echo, -1, "")
	c.writeHeaderBlock(st.id, c.hbuf, false)
	st.headersSent = true
	c.releaseHeaders(st)
	return nil
}

// writeTrailersOnly ends the stream with a Trailers-Only response.
func (st *stream) writeTrailersOnly(echo any, code int, msg string) {
	c := st.c
	c.hbuf = c.codec.appendGRPCHeaders(c.hbuf[:0], echo, code, msg)
	c.writeHeaderBlock(st.id, c.hbuf, true)
	st.headersSent = true
	st.endOurSide()
}

// endOurSide closes a stream whose response is complete. If the client is
// still sending, it is told to stop (RST_STREAM NO_ERROR, RFC 9113 §8.1).
func (st *stream) endOurSide() {
	if st.state == stateOpen {
		st.c.writeReset(st.id, http2.ErrCodeNo)
	}
	st.c.closeStream(st, errStreamDone)
}

// sendData queues b as DATA within the flow-control windows, waiting for
// window and output space; endStream ends the stream with the last frame.
func (st *stream) sendData(b []byte, endStream bool) error {
	c := st.c
	for len(b) > 0 || endStream {
		for {
			if err := st.errOf(); err != nil {
				return err
			}
			if len(b) == 0 || (c.sendWindow > 0 && st.sendWindow > 0 && len(c.out) < outHighWater) {
				break
			}
			st.waitConn()
		}
		n := min(int64(len(b)), c.peerMaxFrame, c.sendWindow, st.sendWindow)
		end := endStream && int(n) == len(b)
		c.fr.WriteData(st.id, end, b[:n])
		c.sendWindow -= n
		st.sendWindow -= n
		b = b[n:]
		c.live.sentHeadersOrData()
		c.kick()
		if end {
			st.endOurSide()
			return nil
		}
	}
	return nil
}

// sendMsg sends one length-prefixed gRPC message, after the response
// headers if they are not sent yet.
func (st *stream) sendMsg(framed []byte) error {
	c := st.c
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := st.errOf(); err != nil {
		return err
	}
	if !st.headersSent {
		if err := st.writeGRPCHeaders(); err != nil {
			c.kick()
			return err
		}
	}
	return st.sendData(framed, false)
}

// finish ends a gRPC call with its status: trailers, or a Trailers-Only
// response if no headers were sent. It does nothing once the stream has
// ended.
func (st *stream) finish(code int, msg string) {
	c := st.c
	c.mu.Lock()
	st.finishLocked(code, msg)
	c.kick()
	c.mu.Unlock()
}

// pastDeadline reports whether the stream's deadline has passed.
func (st *stream) pastDeadline() bool {
	return st.expired
}

func (st *stream) finishLocked(code int, msg string) {
	c := st.c
	if st.closed || c.closing {
		return
	}
	if st.pastDeadline() {
		code, msg = codeDeadlineExceeded, "deadline exceeded"
	}
	if !st.grpc {
		c.writeReset(st.id, http2.ErrCodeInternal)
		c.closeStream(st, errStreamDone)
		return
	}
	if !st.headersSent {
		echo, code, msg, ok := c.fitGRPCHeaders(st.hdr, code, msg)
		if !ok {
			c.resetTooLarge(st)
			return
		}
		st.writeTrailersOnly(echo, code, msg)
		return
	}
	if !c.peerAccepts(grpcTrailersSize(code, msg)) {
		c.resetTooLarge(st)
		return
	}
	c.hbuf = c.codec.appendGRPCTrailers(c.hbuf[:0], code, msg)
	c.writeHeaderBlock(st.id, c.hbuf, true)
	st.endOurSide()
}

// eachMetadata calls fn with each regular field of the request's headers,
// under the connection's lock (fn must not take it), and reports whether
// it could: the headers are released once the response's headers are
// sent or the stream has ended. name and value are views valid only
// during fn.
func (st *stream) eachMetadata(fn func(name, value string)) bool {
	c := st.c
	c.mu.Lock()
	defer c.mu.Unlock()
	if st.hdr == nil {
		return false
	}
	c.codec.eachMetadata(st.hdr, fn)
	return true
}

// waitRequestEnd waits until the client has sent END_STREAM.
func (st *stream) waitRequestEnd() error {
	c := st.c
	c.mu.Lock()
	defer c.mu.Unlock()
	for st.state == stateOpen {
		if err := st.errOf(); err != nil {
			return err
		}
		st.cond.Wait()
	}
	return st.errOf()
}

// respondText sends a plain-text response.
func (st *stream) respondText(status int, body string, head bool) {
	c := st.c
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.kick()
	if st.errOf() != nil {
		return
	}
	if !c.peerAccepts(textHeadersSize(status, len(body))) {
		c.resetTooLarge(st)
		return
	}
	c.hbuf = c.codec.appendTextHeaders(c.hbuf[:0], status, len(body))
	if head {
		body = ""
	}
	c.writeHeaderBlock(st.id, c.hbuf, body == "")
	st.headersSent = true
	c.releaseHeaders(st)
	if body == "" {
		st.endOurSide()
		return
	}
	st.sendData([]byte(body), true)
}
