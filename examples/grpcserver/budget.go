package main

import (
	"encoding/binary"
	"errors"
	"io"
	"sync/atomic"
)

// Message memory. A handler reads a request message whole before it acts
// on it, so the bytes of messages being received or echoed are held
// outside flow control's reach. Before it reads a message the handler
// reserves its size, within MaxConnMessageBytes for its connection and
// MaxServerMessageBytes for the server, and releases it once done with
// the message. A reservation the connection cannot grant waits for other
// handlers to release theirs; one the server cannot grant, or one whose
// waiting could stall the connection, fails with RESOURCE_EXHAUSTED.

// Errors of recvMsg besides io.EOF and the stream's end.
var (
	errMsgTooLarge  = errors.New("request message larger than the server's limit")
	errMsgTruncated = errors.New("truncated request message")
	errMemBusy      = errors.New("server busy: no memory for the request message")
)

// memAccount is the message memory reserved on one connection (under
// conn.mu).
type memAccount struct{ held int64 }

// serverMem is the message memory reserved on the whole server.
type serverMem struct{ held atomic.Int64 }

func (m *serverMem) tryAcquire(n, limit int64) bool {
	if m.held.Add(n) > limit {
		m.held.Add(-n)
		return false
	}
	return true
}

func (m *serverMem) release(n int64) { m.held.Add(-n) }

// reserve reserves n bytes of message memory for st (conn.mu held).
func (st *stream) reserve(n int64) error {
	c := st.c
	if n > int64(c.cfg.MaxConnMessageBytes) {
		return errMemBusy
	}
	for {
		if err := st.errOf(); err != nil {
			return err
		}
		if c.mem.held+n <= int64(c.cfg.MaxConnMessageBytes) {
			break
		}
		// The messages that hold the connection's memory need window to
		// arrive. If the window has run out and the streams waiting for
		// memory hold half of it unread, they give up rather than wait
		// forever.
		if c.recvWindow < defaultFrame && st.unread() > 0 && c.waitersUnread() >= int64(c.cfg.ConnWindowSize)/2 {
			return errMemBusy
		}
		st.waitingMem = true
		st.waitConn()
		st.waitingMem = false
	}
	if !c.s.mem.tryAcquire(n, int64(c.cfg.MaxServerMessageBytes)) {
		return errMemBusy
	}
	c.mem.held += n
	st.held += n
	// The rest of this message may come at the wider window.
	st.target = max(int64(c.cfg.InitialWindowSize), min(int64(c.cfg.StreamWindowSize), n))
	c.replenish(st)
	return nil
}

// waitersUnread is the unread DATA of the streams waiting for memory.
func (c *conn) waitersUnread() int64 {
	var n int64
	for _, st := range c.streams {
		if st.waitingMem {
			n += int64(st.unread())
		}
	}
	return n
}

// releaseMsg gives back the memory of a message from recvMsg.
func (st *stream) releaseMsg(msg []byte) {
	c := st.c
	c.mu.Lock()
	n := int64(len(msg))
	st.held -= n
	c.mem.held -= n
	c.s.mem.release(n)
	if c.outWaiters > 0 {
		c.wakeAll()
	}
	c.mu.Unlock()
}

// recvMsg returns the stream's next request message, length prefix
// included, in memory reserved for it: give it back with releaseMsg. It
// returns io.EOF when the request ended between messages.
func (st *stream) recvMsg() ([]byte, error) {
	c := st.c
	c.mu.Lock()
	defer c.mu.Unlock()
	for st.unread() < 5 {
		if err := st.errOf(); err != nil {
			return nil, err
		}
		if st.state != stateOpen {
			if st.unread() == 0 {
				return nil, io.EOF
			}
			return nil, errMsgTruncated
		}
		st.cond.Wait()
	}
	size := 5 + int64(binary.BigEndian.Uint32(st.in[st.inOff+1:]))
	if size > int64(c.cfg.MaxMessageSize) {
		return nil, errMsgTooLarge
	}
	if err := st.reserve(size); err != nil {
		return nil, err
	}
	msg := make([]byte, 0, size)
	for {
		take := min(int64(st.unread()), size-int64(len(msg)))
		msg = append(msg, st.in[st.inOff:st.inOff+int(take)]...)
		st.consume(int(take))
		c.kick()
		if int64(len(msg)) == size {
			st.target = int64(c.cfg.InitialWindowSize)
			return msg, nil
		}
		err := st.errOf()
		if err == nil && st.state != stateOpen {
			err = errMsgTruncated
		}
		if err != nil {
			st.target = int64(c.cfg.InitialWindowSize)
			st.held -= size
			c.mem.held -= size
			c.s.mem.release(size)
			return nil, err
		}
		st.cond.Wait()
	}
}
