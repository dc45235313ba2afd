package main

import (
	"errors"

	"golang.org/x/net/http2"
)

// Flow control of what the client sends (RFC 9113 §5.2): a DATA payload
// is buffered on its stream until the handler consumes it, and only then
// is its window given back, on the stream and on the connection. So a
// connection holds at most ConnWindowSize unread bytes, however slowly
// its handlers read. A stream's window is InitialWindowSize (16 KiB by
// default: room for small messages) until its handler has reserved
// memory for the message it is receiving (budget.go); then it grows to
// StreamWindowSize for the rest of that message. So the streams that
// wait for memory hold little of the connection's window, and the ones
// that hold memory can always receive what they reserved it for.

func (c *conn) processData(f *http2.DataFrame) error {
	id := f.StreamID
	n := int64(f.Length) // padding included
	if n > c.recvWindow {
		return connError{http2.ErrCodeFlowControl, "DATA beyond the connection window"}
	}
	c.recvWindow -= n
	st := c.streams[id]
	if st == nil {
		c.consumed(nil, n)
		if id > c.maxStreamID {
			return connError{http2.ErrCodeProtocol, "DATA on an idle stream"}
		}
		if c.resets.has(id) {
			return nil // sent before the client saw our RST_STREAM
		}
		return streamError(id, http2.ErrCodeStreamClosed, errors.New("DATA on a closed stream"))
	}
	if st.state != stateOpen {
		c.consumed(nil, n)
		return streamError(id, http2.ErrCodeStreamClosed, errors.New("DATA on a half-closed stream"))
	}
	if n > st.recvWindow {
		c.consumed(nil, n)
		return streamError(id, http2.ErrCodeFlowControl, errors.New("DATA beyond the stream window"))
	}
	st.recvWindow -= n
	data := f.Data()
	st.recvd += int64(len(data))
	if cl := st.info.contentLength; cl >= 0 && st.recvd > cl {
		c.consumed(nil, n)
		return streamError(id, http2.ErrCodeProtocol, errors.New("more DATA than content-length"))
	}
	if st.grpc {
		// Padding is consumed at once; the payload when the handler
		// reads it.
		st.buffer(data)
		c.consumed(st, n-int64(len(data)))
	} else {
		c.consumed(st, n) // plain-text requests: the body is dropped
	}
	if f.StreamEnded() {
		if err := c.endRequest(st); err != nil {
			return err
		}
	}
	st.cond.Broadcast()
	if c.outWaiters > 0 && c.recvWindow < defaultFrame {
		c.wakeAll() // handlers waiting for memory may have to give up (see reserve)
	}
	return nil
}

// consumed gives back n bytes of window on the connection, and, if st is
// not nil and the client may still send on it, tops up st's window (see
// replenish): a WINDOW_UPDATE goes out once half a window can be given,
// so the client always has at least half of each window to send in.
func (c *conn) consumed(st *stream, n int64) {
	if n <= 0 || c.closing {
		return
	}
	c.unreturned += n
	if w := int64(c.cfg.ConnWindowSize); c.unreturned >= w/2 {
		c.fr.WriteWindowUpdate(0, uint32(c.unreturned))
		c.recvWindow += c.unreturned
		c.unreturned = 0
	}
	if st == nil || st.state != stateOpen || st.closed {
		return
	}
	c.replenish(st)
}

// replenish gives the client back as much of st's window as makes what it
// may send plus what is buffered unread equal st.target, once that is at
// least half the target.
func (c *conn) replenish(st *stream) {
	if c.closing || st.closed || st.state != stateOpen {
		return
	}
	if give := st.target - st.recvWindow - int64(st.unread()); give > 0 && give >= st.target/2 {
		c.fr.WriteWindowUpdate(st.id, uint32(give))
		st.recvWindow += give
	}
}

// unread is how many received bytes the handler has not consumed.
func (st *stream) unread() int { return len(st.in) - st.inOff }

// buffer appends request DATA to the stream's unread bytes. The buffer is
// reused: consumed bytes are dropped from its front when it would grow.
func (st *stream) buffer(data []byte) {
	if st.inOff > 0 && len(st.in)+len(data) > cap(st.in) {
		n := copy(st.in, st.in[st.inOff:])
		st.in, st.inOff = st.in[:n], 0
	}
	st.in = append(st.in, data...)
}

// consume drops n unread bytes that the handler has taken and gives their
// window back.
func (st *stream) consume(n int) {
	if st.inOff += n; st.inOff == len(st.in) {
		st.in, st.inOff = st.in[:0], 0
	}
	st.c.consumed(st, int64(n))
}
