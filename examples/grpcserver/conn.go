package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"golang.org/x/net/http2"
)

const (
	maxWindow      = 1<<31 - 1
	defaultWindow  = 65535
	defaultFrame   = 16384
	prefaceTimeout = 10 * time.Second
	writeTimeout   = 10 * time.Second
	lingerTimeout  = time.Second
)

// connError is a connection error: GOAWAY with code, then close.
type connError struct {
	code   http2.ErrCode
	reason string
}

func (e connError) Error() string { return fmt.Sprintf("connection error %v: %s", e.code, e.reason) }

func streamError(id uint32, code http2.ErrCode, cause error) error {
	return http2.StreamError{StreamID: id, Code: code, Cause: cause}
}

// Causes of a stream context's cancellation.
var (
	errConnClosed  = errors.New("grpcserver: connection closed")
	errStreamReset = errors.New("grpcserver: stream reset by the client")
	errStreamDone  = errors.New("grpcserver: stream finished")
)

// conn is one HTTP/2 connection. Its goroutine (serve) reads frames and
// acts on them; each request runs in a handler goroutine of its own
// (handler.go); a writer goroutine (conn_write.go) sends what both
// produce. mu guards everything but the read side of the Framer: the
// reader holds it while it acts on a frame, a handler while it encodes
// and queues its frames, so header blocks reach the wire in the order the
// encoder produced them.
type conn struct {
	s   *Server
	cfg *Config
	nc  net.Conn
	br  *bufio.Reader
	fr  *http2.Framer // reads: the reader only; writes: under mu, into out

	ctx    context.Context // cancelled when the connection closes
	cancel context.CancelCauseFunc

	mu    sync.Mutex
	codec headerCodec

	out     []byte        // frames waiting for the writer goroutine
	spare   []byte        // the writer's previous buffer, for reuse
	wake    chan struct{} // tells the writer there is output
	wdone   chan struct{} // closed when the writer goroutine ends
	closing bool          // teardown started: no more frames after the final GOAWAY
	// draining: we sent GOAWAY(NO_ERROR); the connection closes when its
	// last stream ends.
	draining bool
	started  bool // our SETTINGS are queued: GOAWAY may follow

	streams     map[uint32]*stream
	maxStreamID uint32 // highest client stream ID seen
	goAwaySent  bool
	peerGoAway  bool
	sawSettings bool
	unacked     int // SETTINGS frames we sent that await an ACK
	handlers    sync.WaitGroup

	peerMaxFrame   int64
	peerInitWindow int64
	// peerMaxHeaderList is the client's SETTINGS_MAX_HEADER_LIST_SIZE,
	// -1 until it sets one (see peerlimit.go).
	peerMaxHeaderList int64
	sendWindow        int64 // connection send window
	recvWindow        int64 // how much the client may still send on the connection
	unreturned        int64 // bytes consumed but not yet given back with WINDOW_UPDATE
	outWaiters        int   // handlers waiting for connection-level send resources

	resets resetSet // streams we reset: their late frames are ignored
	hbuf   []byte   // encoded header block scratch

	mem  memAccount // message memory held by this connection's handlers
	live liveness   // idle timeout, keepalive, ping policy, rapid resets
}

func (s *Server) serveConn(nc net.Conn) {
	c := &conn{
		s:                 s,
		cfg:               &s.cfg,
		nc:                nc,
		br:                bufio.NewReaderSize(nc, 32<<10),
		codec:             s.newCodec(),
		streams:           make(map[uint32]*stream),
		peerMaxFrame:      defaultFrame,
		peerInitWindow:    defaultWindow,
		peerMaxHeaderList: -1,
		sendWindow:        defaultWindow,
		wake:              make(chan struct{}, 1),
		wdone:             make(chan struct{}),
	}
	c.ctx, c.cancel = context.WithCancelCause(context.Background())
	c.fr = http2.NewFramer((*outWriter)(c), c.br)
	c.fr.SetMaxReadFrameSize(defaultFrame) // the default we keep advertising
	c.fr.SetReuseFrames()
	// Header blocks are read whole, CONTINUATION frames included, within
	// the list size we advertise: by the codec, or by the Framer with the
	// codec's decoder as its ReadMetaHeaders (see readHeaderBlock).
	c.fr.MaxHeaderListSize = uint32(c.cfg.MaxHeaderListSize)
	c.codec.setFramer(c.fr)
	if !s.track(c) {
		nc.Close()
		return
	}
	defer s.untrack(c)
	go c.writeLoop()
	c.serve()
	c.teardown()
}

func (c *conn) serve() {
	c.nc.SetReadDeadline(time.Now().Add(prefaceTimeout))
	var preface [len(http2.ClientPreface)]byte
	if _, err := io.ReadFull(c.br, preface[:]); err != nil || string(preface[:]) != http2.ClientPreface {
		c.mu.Lock()
		if err == nil {
			c.goAway(http2.ErrCodeProtocol, "invalid connection preface (this server speaks h2c with prior knowledge only)")
		}
		c.mu.Unlock()
		c.linger()
		return
	}
	c.nc.SetReadDeadline(time.Time{})

	c.mu.Lock()
	c.fr.WriteSettings(
		http2.Setting{ID: http2.SettingHeaderTableSize, Val: c.cfg.HeaderTableSize},
		http2.Setting{ID: http2.SettingMaxConcurrentStreams, Val: c.cfg.MaxConcurrentStreams},
		http2.Setting{ID: http2.SettingInitialWindowSize, Val: c.cfg.InitialWindowSize},
		http2.Setting{ID: http2.SettingMaxHeaderListSize, Val: uint32(c.cfg.MaxHeaderListSize)},
	)
	c.unacked++
	c.recvWindow = defaultWindow
	if w := int64(c.cfg.ConnWindowSize); w > defaultWindow {
		c.fr.WriteWindowUpdate(0, uint32(w-defaultWindow))
		c.recvWindow = w
	}
	c.live.start(c)
	c.started = true
	if c.s.isShuttingDown() {
		c.drainLocked()
	}
	c.kick()
	c.mu.Unlock()

	for {
		f, err := c.fr.ReadFrame()
		// A header block is read whole, CONTINUATION frames included,
		// before the lock: the client may be slow to send them. Only this
		// goroutine reads frames, uses the decoder, and sets sawSettings.
		var hb headerBlock
		isHeaders := false
		if c.sawSettings { // else the preface check fails
			if hb, isHeaders = c.readHeaderBlock(f, err); isHeaders {
				err = nil // the block's error, in hb
			}
		}
		c.mu.Lock()
		if c.closing {
			// Lingering after our GOAWAY: read and drop until the
			// client closes or the deadline passes.
			c.mu.Unlock()
			if err != nil {
				return
			}
			continue
		}
		if err == nil {
			c.live.frameRead()
			if !c.sawSettings {
				if sf, ok := f.(*http2.SettingsFrame); !ok || sf.IsAck() {
					err = connError{http2.ErrCodeProtocol, "the client preface must end with a SETTINGS frame"}
				}
			}
			if err == nil {
				if isHeaders {
					err = c.processHeaders(hb)
				} else {
					err = c.processFrame(f)
				}
			}
		}
		end := err != nil && c.handleErr(err)
		if end || !c.frameBuffered() {
			// The next read may block: what this burst of frames
			// produced goes out together.
			c.kick()
		}
		c.mu.Unlock()
		if end {
			c.linger()
			return
		}
	}
}

// frameBuffered reports whether a whole frame is buffered, so that the
// next ReadFrame will not block.
func (c *conn) frameBuffered() bool {
	n := c.br.Buffered()
	if n < 9 {
		return false
	}
	h, _ := c.br.Peek(9)
	return n >= 9+(int(h[0])<<16|int(h[1])<<8|int(h[2]))
}

// handleErr handles a stream error (RST_STREAM) and reports whether err
// ends the connection; if it does, GOAWAY is queued when the protocol
// asks for one.
func (c *conn) handleErr(err error) bool {
	var se http2.StreamError
	if errors.As(err, &se) {
		c.writeReset(se.StreamID, se.Code)
		if st := c.streams[se.StreamID]; st != nil {
			c.closeStream(st, errStreamDone)
		}
		return false
	}
	var ce connError
	var hce http2.ConnectionError
	switch {
	case errors.As(err, &ce):
		c.goAway(ce.code, ce.reason)
	case errors.As(err, &hce):
		reason := "frame error"
		if d := c.fr.ErrorDetail(); d != nil {
			reason = d.Error()
		}
		c.goAway(http2.ErrCode(hce), reason)
	case errors.Is(err, http2.ErrFrameTooLarge):
		c.goAway(http2.ErrCodeFrameSize, "frame larger than SETTINGS_MAX_FRAME_SIZE")
	case errors.Is(err, io.EOF), errors.Is(err, net.ErrClosed):
		c.startClose()
	default:
		c.s.logf("grpcserver: %v: %v", c.nc.RemoteAddr(), err)
		c.startClose()
	}
	return true
}

// writeReset sends RST_STREAM and remembers the stream as reset by us.
func (c *conn) writeReset(id uint32, code http2.ErrCode) {
	if c.closing {
		return
	}
	c.fr.WriteRSTStream(id, code)
	c.resets.add(id)
}

// goAway queues GOAWAY (once) and starts closing the connection.
func (c *conn) goAway(code http2.ErrCode, reason string) {
	if code != http2.ErrCodeNo {
		c.s.logf("grpcserver: %v: GOAWAY %v: %s", c.nc.RemoteAddr(), code, reason)
	}
	if !c.goAwaySent && !c.closing {
		c.goAwaySent = true
		c.fr.WriteGoAway(c.maxStreamID, code, []byte(reason))
	}
	c.startClose()
}

// startClose begins the teardown: every stream's context is cancelled,
// nothing more is queued, the writer sends what is queued and shuts the
// write side, and the reader has lingerTimeout to see the client close.
func (c *conn) startClose() {
	if c.closing {
		return
	}
	c.closing = true
	c.cancel(errConnClosed)
	for _, st := range c.streams {
		c.closeStream(st, errConnClosed)
	}
	c.live.stop()
	c.kick()
	c.nc.SetReadDeadline(time.Now().Add(lingerTimeout))
}

// drainLocked sends GOAWAY(NO_ERROR) with the last stream ID we will
// serve (RFC 9113 §6.8); the streams in flight finish, and the connection
// closes when the last one does.
func (c *conn) drainLocked() {
	if c.draining || c.closing || !c.started {
		return // not started: serve drains it once it has sent SETTINGS
	}
	c.draining = true
	if !c.goAwaySent {
		c.goAwaySent = true
		c.fr.WriteGoAway(c.maxStreamID, http2.ErrCodeNo, nil)
	}
	c.maybeFinishDrain()
	c.kick()
}

// maybeFinishDrain closes a draining connection, or one the client sent
// GOAWAY on, once no stream is left.
func (c *conn) maybeFinishDrain() {
	if len(c.streams) > 0 || c.closing {
		return
	}
	if c.draining || c.peerGoAway {
		c.goAway(http2.ErrCodeNo, "")
	}
}

// linger reads and drops what the client still sends until it closes or
// lingerTimeout passes, so that it reads our GOAWAY before it sees the
// connection close.
func (c *conn) linger() {
	c.mu.Lock()
	c.startClose()
	c.kick()
	c.mu.Unlock()
	c.nc.SetReadDeadline(time.Now().Add(lingerTimeout))
	io.Copy(io.Discard, io.LimitReader(c.br, 1<<20))
}

// teardown closes the socket and waits for the writer and the handlers.
func (c *conn) teardown() {
	c.mu.Lock()
	c.startClose()
	c.mu.Unlock()
	select {
	case <-c.wdone:
	case <-time.After(writeTimeout):
	}
	c.nc.Close()
	<-c.wdone
	c.handlers.Wait()
}
