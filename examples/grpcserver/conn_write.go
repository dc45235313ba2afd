package main

import (
	"net"
	"runtime"
	"time"

	"github.com/metapack/metapack/headerblock"
)

// Output: frames are framed under conn.mu into conn.out, and the writer
// goroutine sends whatever has gathered there in one write, so that the
// replies to a burst of requests share a syscall and a slow client never
// blocks a goroutine that holds the lock.
const (
	// outHighWater is how much queued output makes handlers wait before
	// they queue more DATA.
	outHighWater = 256 << 10
	// maxQueuedControl bounds the output the reader may queue (PING and
	// SETTINGS acknowledgements, RST_STREAM, WINDOW_UPDATE) for a client
	// that does not read: past it the connection is closed.
	maxQueuedControl = 1 << 20
)

// outWriter is the Framer's writer: it appends to conn.out (under mu).
type outWriter conn

func (w *outWriter) Write(p []byte) (int, error) {
	w.out = append(w.out, p...)
	return len(p), nil
}

// kick tells the writer goroutine that there may be output.
func (c *conn) kick() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

func (c *conn) writeLoop() {
	defer close(c.wdone)
	for range c.wake {
		// Let the handlers that are ready run first, so that their
		// output joins this write.
		runtime.Gosched()
		c.mu.Lock()
		buf := c.out
		c.out = c.spare[:0]
		closing := c.closing
		c.mu.Unlock()
		if len(buf) > 0 {
			c.nc.SetWriteDeadline(time.Now().Add(writeTimeout))
			if _, err := c.nc.Write(buf); err != nil {
				c.mu.Lock()
				if !c.closing {
					c.s.logf("grpcserver: %v: write: %v", c.nc.RemoteAddr(), err)
				}
				c.startClose()
				c.mu.Unlock()
				return
			}
		}
		c.mu.Lock()
		c.spare = buf[:0]
		if len(c.out) > 0 {
			c.kick() // more came while we wrote
		} else if closing || c.closing {
			c.mu.Unlock()
			if tc, ok := c.nc.(*net.TCPConn); ok {
				tc.CloseWrite()
			}
			return
		}
		if c.outWaiters > 0 {
			c.wakeAll()
		}
		c.mu.Unlock()
	}
}

// wakeAll wakes every handler that waits on a connection-level resource:
// send window, output space, message memory, or the connection's end.
func (c *conn) wakeAll() {
	for _, st := range c.streams {
		st.cond.Broadcast()
	}
}

// controlRoom reports whether the reader may queue more control frames.
func (c *conn) controlRoom() bool { return len(c.out) < maxQueuedControl }

// writeHeaderBlock writes a header block as HEADERS and, past the peer's
// maximum frame size, CONTINUATION frames.
func (c *conn) writeHeaderBlock(id uint32, block []byte, endStream bool) {
	// The Framer writes into c.out, which does not fail.
	headerblock.WriteBlock(c.fr, id, endStream, block, uint32(c.peerMaxFrame))
	c.live.sentHeadersOrData()
}
