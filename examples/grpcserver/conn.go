package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"time"

	mphpack "github.com/metapack/metapack/hpack"
	"golang.org/x/net/http2"
)

const (
	maxWindow      = 1<<31 - 1
	defaultWindow  = 65535
	defaultFrame   = 16384
	prefaceTimeout = 10 * time.Second
	writeTimeout   = 10 * time.Second
	lingerTimeout  = time.Second
	// maxKeptBody bounds the body buffer a finished stream keeps for reuse.
	maxKeptBody = 64 << 10
)

type streamState uint8

const (
	// stateOpen: request headers received, more DATA (or trailers) may
	// follow.
	stateOpen streamState = iota
	// stateHalfClosedRemote: the request is complete; the response is
	// being sent (it may wait for flow-control window).
	stateHalfClosedRemote
)

// stream is a client-initiated stream: open or half-closed (remote).
// Closed streams are not kept; a frame on a stream ID at or below the
// highest one seen, with no stream in the map, is on a closed stream.
type stream struct {
	id    uint32
	state streamState
	grpc  bool
	hdr   any // the codec's request header storage, until the response headers are sent
	info  reqInfo

	body  []byte // buffered request body (gRPC only)
	recvd int64  // request body bytes received
	large bool   // the body went over MaxMessageSize

	recvWindow int64 // how much the client may still send on the stream
	sendWindow int64 // how much we may still send on the stream

	// The response's remaining parts: DATA payload, then trailers.
	out      []byte
	trailers bool
	status   int
	msg      string
	blocked  bool // waiting in conn.blocked for window
}

// headerBlock is the header block being received.
type headerBlock struct {
	streamID      uint32
	endStream     bool
	selfDependent bool
	// ignore is set for a block on a stream we reset: it is decoded, to
	// keep the HPACK state in sync, and dropped.
	ignore        bool
	frames, bytes int
}

// connError is a connection error: GOAWAY with code, then close.
type connError struct {
	code   http2.ErrCode
	reason string
}

func (e connError) Error() string { return fmt.Sprintf("connection error %v: %s", e.code, e.reason) }

func streamError(id uint32, code http2.ErrCode, cause error) error {
	return http2.StreamError{StreamID: id, Code: code, Cause: cause}
}

// conn is one HTTP/2 connection. A single goroutine reads frames, handles
// them and writes the replies into a buffered writer, which is flushed
// whenever no more input is buffered: replies to a burst of requests go
// out in one write.
type conn struct {
	s     *Server
	cfg   *Config
	nc    net.Conn
	br    *bufio.Reader
	bw    *bufio.Writer
	fr    *http2.Framer
	codec headerCodec

	streams     map[uint32]*stream
	maxStreamID uint32 // highest client stream ID seen
	goAwaySent  bool
	peerGoAway  bool
	sawSettings bool
	unacked     int // SETTINGS frames we sent that await an ACK

	peerMaxFrame int64
	// peerMaxHeaderList is the client's SETTINGS_MAX_HEADER_LIST_SIZE,
	// -1 until it sets one (see peerlimit.go).
	peerMaxHeaderList int64
	peerInitWindow    int64
	sendWindow        int64 // connection send window
	recvWindow        int64 // how much the client may still send on the connection

	hb     headerBlock
	resets resetSet // streams we reset: their late frames are ignored

	blocked []*stream // streams with output waiting for window
	free    []*stream
	hbuf    []byte // encoded header block scratch
}

func (s *Server) serveConn(nc net.Conn) {
	defer nc.Close()
	c := &conn{
		s:                 s,
		cfg:               &s.cfg,
		nc:                nc,
		br:                bufio.NewReaderSize(nc, 32<<10),
		bw:                bufio.NewWriterSize(nc, 32<<10),
		codec:             s.newCodec(),
		streams:           make(map[uint32]*stream),
		peerMaxFrame:      defaultFrame,
		peerMaxHeaderList: -1,
		peerInitWindow:    defaultWindow,
		sendWindow:        defaultWindow,
	}
	c.fr = http2.NewFramer(c.bw, c.br)
	c.fr.SetMaxReadFrameSize(defaultFrame) // the default we keep advertising
	c.fr.SetReuseFrames()
	// ReadMetaHeaders stays nil: header blocks go to our codec fragment
	// by fragment.
	c.serve()
}

func (c *conn) serve() {
	c.nc.SetReadDeadline(time.Now().Add(prefaceTimeout))
	var preface [len(http2.ClientPreface)]byte
	if _, err := io.ReadFull(c.br, preface[:]); err != nil || string(preface[:]) != http2.ClientPreface {
		if err == nil {
			c.goAway(http2.ErrCodeProtocol, "invalid connection preface (this server speaks h2c with prior knowledge only)")
		}
		return
	}
	c.nc.SetReadDeadline(time.Time{})

	c.fr.WriteSettings(
		http2.Setting{ID: http2.SettingHeaderTableSize, Val: c.cfg.HeaderTableSize},
		http2.Setting{ID: http2.SettingMaxConcurrentStreams, Val: c.cfg.MaxConcurrentStreams},
		http2.Setting{ID: http2.SettingInitialWindowSize, Val: c.cfg.InitialWindowSize},
		http2.Setting{ID: http2.SettingMaxHeaderListSize, Val: uint32(c.cfg.MaxHeaderListSize)},
	)
	c.unacked++
	c.recvWindow = defaultWindow
	if w := int64(c.cfg.InitialWindowSize); w > defaultWindow {
		c.fr.WriteWindowUpdate(0, uint32(w-defaultWindow))
		c.recvWindow = w
	}

	for {
		if c.br.Buffered() == 0 {
			if err := c.flush(); err != nil {
				return
			}
			if c.peerGoAway && len(c.streams) == 0 {
				// The client is done: say so too, and close gracefully.
				c.goAway(http2.ErrCodeNo, "")
				return
			}
			if c.cfg.IdleTimeout > 0 {
				c.nc.SetReadDeadline(time.Now().Add(c.cfg.IdleTimeout))
			}
		}
		f, err := c.fr.ReadFrame()
		if err == nil {
			if !c.sawSettings {
				if sf, ok := f.(*http2.SettingsFrame); !ok || sf.IsAck() {
					err = connError{http2.ErrCodeProtocol, "the client preface must end with a SETTINGS frame"}
				}
			}
			if err == nil {
				err = c.processFrame(f)
			}
		}
		if err != nil && c.handleErr(err) {
			return
		}
	}
}

// handleErr handles a stream error (RST_STREAM) and reports whether err
// ends the connection.
func (c *conn) handleErr(err error) bool {
	var se http2.StreamError
	if errors.As(err, &se) {
		c.writeReset(se.StreamID, se.Code)
		if st := c.streams[se.StreamID]; st != nil {
			c.closeStream(st)
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
	default:
		c.s.logf("grpcserver: %v: %v", c.nc.RemoteAddr(), err)
	}
	return true
}

// writeReset sends RST_STREAM and remembers the stream as reset by us.
func (c *conn) writeReset(id uint32, code http2.ErrCode) {
	c.fr.WriteRSTStream(id, code)
	c.resets.add(id)
}

// goAway sends GOAWAY and lingers briefly, so that the peer reads it
// before it sees the connection close.
func (c *conn) goAway(code http2.ErrCode, reason string) {
	if code != http2.ErrCodeNo {
		c.s.logf("grpcserver: %v: GOAWAY %v: %s", c.nc.RemoteAddr(), code, reason)
	}
	if !c.goAwaySent {
		c.goAwaySent = true
		c.fr.WriteGoAway(c.maxStreamID, code, []byte(reason))
	}
	if c.flush() != nil {
		return
	}
	if tc, ok := c.nc.(*net.TCPConn); ok {
		tc.CloseWrite()
		tc.SetReadDeadline(time.Now().Add(lingerTimeout))
		io.Copy(io.Discard, io.LimitReader(tc, 1<<20))
	}
}

func (c *conn) flush() error {
	if c.bw.Buffered() == 0 {
		return nil
	}
	c.nc.SetWriteDeadline(time.Now().Add(writeTimeout))
	return c.bw.Flush()
}

func (c *conn) processFrame(f http2.Frame) error {
	switch f := f.(type) {
	case *http2.HeadersFrame:
		return c.processHeaders(f)
	case *http2.ContinuationFrame:
		// The Framer checked that it continues the open header block.
		return c.decodeFragment(f.HeaderBlockFragment(), f.HeadersEnded())
	case *http2.DataFrame:
		return c.processData(f)
	case *http2.SettingsFrame:
		return c.processSettings(f)
	case *http2.PingFrame:
		if !f.IsAck() {
			c.fr.WritePing(true, f.Data)
		}
	case *http2.WindowUpdateFrame:
		return c.processWindowUpdate(f)
	case *http2.RSTStreamFrame:
		if f.StreamID > c.maxStreamID {
			return connError{http2.ErrCodeProtocol, "RST_STREAM on an idle stream"}
		}
		if st := c.streams[f.StreamID]; st != nil {
			c.closeStream(st)
		}
	case *http2.PriorityFrame:
		if f.StreamDep == f.StreamID {
			return streamError(f.StreamID, http2.ErrCodeProtocol, errors.New("stream depends on itself"))
		}
	case *http2.GoAwayFrame:
		c.peerGoAway = true
	case *http2.PushPromiseFrame:
		return connError{http2.ErrCodeProtocol, "PUSH_PROMISE from a client"}
	}
	// Unknown frame types are ignored.
	return nil
}

func (c *conn) processSettings(f *http2.SettingsFrame) error {
	if f.IsAck() {
		if c.unacked > 0 {
			c.unacked--
			// The client now uses our table size: so may the decoder.
			c.codec.ackHeaderTableSize(c.cfg.HeaderTableSize)
		}
		return nil
	}
	err := f.ForeachSetting(func(s http2.Setting) error {
		if err := s.Valid(); err != nil {
			return err
		}
		switch s.ID {
		case http2.SettingHeaderTableSize:
			c.codec.setPeerHeaderTableSize(s.Val)
		case http2.SettingInitialWindowSize:
			delta := int64(s.Val) - c.peerInitWindow
			c.peerInitWindow = int64(s.Val)
			for _, st := range c.streams {
				st.sendWindow += delta
				if st.sendWindow > maxWindow {
					return connError{http2.ErrCodeFlowControl, "SETTINGS_INITIAL_WINDOW_SIZE overflows a stream window"}
				}
			}
		case http2.SettingMaxFrameSize:
			c.peerMaxFrame = int64(s.Val)
		case http2.SettingMaxHeaderListSize:
			c.peerMaxHeaderList = int64(s.Val)
		}
		return nil
	})
	if err != nil {
		return err
	}
	c.sawSettings = true
	c.fr.WriteSettingsAck()
	c.sendBlocked()
	return nil
}

func (c *conn) processWindowUpdate(f *http2.WindowUpdateFrame) error {
	inc := int64(f.Increment)
	if f.StreamID == 0 {
		if c.sendWindow += inc; c.sendWindow > maxWindow {
			return connError{http2.ErrCodeFlowControl, "connection window above 2^31-1"}
		}
	} else {
		st := c.streams[f.StreamID]
		if st == nil {
			if f.StreamID > c.maxStreamID {
				return connError{http2.ErrCodeProtocol, "WINDOW_UPDATE on an idle stream"}
			}
			return nil // a closed stream: allowed, ignored
		}
		if st.sendWindow += inc; st.sendWindow > maxWindow {
			return streamError(st.id, http2.ErrCodeFlowControl, errors.New("stream window above 2^31-1"))
		}
	}
	c.sendBlocked()
	return nil
}

func (c *conn) processHeaders(f *http2.HeadersFrame) error {
	id := f.StreamID
	if id%2 == 0 {
		return connError{http2.ErrCodeProtocol, "HEADERS on an even stream ID"}
	}
	ignore := false
	if c.streams[id] == nil && id <= c.maxStreamID {
		switch {
		case c.resets.has(id):
			ignore = true // trailers the client sent before our RST_STREAM
		case id == c.maxStreamID:
			return connError{http2.ErrCodeStreamClosed, "HEADERS on a closed stream"}
		default:
			return connError{http2.ErrCodeProtocol, "stream ID below one already used"}
		}
	}
	c.hb = headerBlock{
		streamID:      id,
		endStream:     f.StreamEnded(),
		selfDependent: f.HasPriority() && f.Priority.StreamDep == id,
		ignore:        ignore,
	}
	return c.decodeFragment(f.HeaderBlockFragment(), f.HeadersEnded())
}

// decodeFragment feeds one fragment of the open header block to the codec,
// within the block's byte and frame budget.
func (c *conn) decodeFragment(frag []byte, last bool) error {
	c.hb.frames++
	c.hb.bytes += len(frag)
	if c.hb.frames > c.cfg.MaxHeaderBlockFrames || c.hb.bytes > c.cfg.MaxHeaderBlockBytes {
		return connError{http2.ErrCodeEnhanceYourCalm, fmt.Sprintf("header block over %d bytes or %d frames", c.cfg.MaxHeaderBlockBytes, c.cfg.MaxHeaderBlockFrames)}
	}
	err := c.codec.decodeFragment(frag, last)
	if err != nil && !mphpack.IsStreamError(err) {
		return connError{http2.ErrCodeCompression, err.Error()}
	}
	if !last {
		return nil
	}
	return c.endBlock(err)
}

// endBlock acts on a complete header block; limitErr is set when the
// header list went over the limits.
func (c *conn) endBlock(limitErr error) error {
	hb := c.hb
	id := hb.streamID
	if hb.ignore {
		c.codec.discardBlock()
		return nil
	}
	st := c.streams[id]
	if st == nil { // a new stream
		c.maxStreamID = id
		var err error
		switch {
		case c.goAwaySent:
			// Past our GOAWAY: ignored.
		case limitErr != nil:
			c.codec.discardBlock()
			c.refuseHeaderList(id, hb.endStream)
			return nil
		case hb.selfDependent:
			err = streamError(id, http2.ErrCodeProtocol, errors.New("stream depends on itself"))
		case len(c.streams) >= int(c.cfg.MaxConcurrentStreams):
			err = streamError(id, http2.ErrCodeRefusedStream, nil)
		default:
			hdr, info, err := c.codec.takeRequest()
			if err != nil {
				return streamError(id, http2.ErrCodeProtocol, err)
			}
			st = c.newStream(id, hdr, info)
			if hb.endStream {
				return c.endRequest(st)
			}
			return nil
		}
		c.codec.discardBlock()
		return err
	}
	// Trailers of an open stream.
	if limitErr != nil {
		c.codec.discardBlock()
		return streamError(id, http2.ErrCodeEnhanceYourCalm, limitErr)
	}
	if st.state != stateOpen {
		c.codec.discardBlock()
		return streamError(id, http2.ErrCodeStreamClosed, errors.New("HEADERS on a half-closed stream"))
	}
	if !hb.endStream {
		c.codec.discardBlock()
		return streamError(id, http2.ErrCodeProtocol, errors.New("trailers without END_STREAM"))
	}
	if err := c.codec.takeTrailers(); err != nil {
		return streamError(id, http2.ErrCodeProtocol, err)
	}
	return c.endRequest(st)
}

// refuseHeaderList answers a request whose header list is over the size
// we advertise with 431 (Request Header Fields Too Large, RFC 6585; RFC
// 9113 §10.5.1), and, if the client is still sending, asks it to stop
// with RST_STREAM(NO_ERROR). The connection and its HPACK state go on.
func (c *conn) refuseHeaderList(id uint32, endStream bool) {
	if !c.peerAccepts(textHeadersSize(431, 0)) {
		c.writeReset(id, http2.ErrCodeRefusedStream)
		return
	}
	c.hbuf = c.codec.appendTextHeaders(c.hbuf[:0], 431, 0)
	c.writeHeaderBlock(id, c.hbuf, true)
	if !endStream {
		c.writeReset(id, http2.ErrCodeNo)
	}
}

func (c *conn) newStream(id uint32, hdr any, info reqInfo) *stream {
	var st *stream
	if n := len(c.free); n > 0 {
		st, c.free = c.free[n-1], c.free[:n-1]
	} else {
		st = new(stream)
	}
	st.id, st.hdr, st.info = id, hdr, info
	st.state = stateOpen
	st.grpc = isGRPC(&info)
	st.recvWindow = int64(c.cfg.InitialWindowSize)
	st.sendWindow = c.peerInitWindow
	c.streams[id] = st
	return st
}

// closeStream forgets a stream; its ID is closed from now on.
func (c *conn) closeStream(st *stream) {
	delete(c.streams, st.id)
	c.releaseHeaders(st)
	if st.blocked {
		if i := slices.Index(c.blocked, st); i >= 0 {
			c.blocked = slices.Delete(c.blocked, i, i+1)
		}
	}
	body := st.body[:0]
	if cap(body) > maxKeptBody {
		body = nil
	}
	*st = stream{body: body}
	c.free = append(c.free, st)
}

func (c *conn) releaseHeaders(st *stream) {
	if st.hdr != nil {
		c.codec.releaseRequest(st.hdr)
		st.hdr = nil
		st.info = reqInfo{}
	}
}

func (c *conn) processData(f *http2.DataFrame) error {
	id := f.StreamID
	n := int64(f.Length) // padding included
	if n > c.recvWindow {
		return connError{http2.ErrCodeFlowControl, "DATA beyond the connection window"}
	}
	// Give the connection window back at once: the request body is
	// consumed (buffered or dropped) right here.
	c.recvWindow -= n
	if w := int64(c.cfg.InitialWindowSize); c.recvWindow <= w/2 {
		c.fr.WriteWindowUpdate(0, uint32(w-c.recvWindow))
		c.recvWindow = w
	}
	st := c.streams[id]
	if st == nil {
		if id > c.maxStreamID {
			return connError{http2.ErrCodeProtocol, "DATA on an idle stream"}
		}
		if c.resets.has(id) {
			return nil // sent before the client saw our RST_STREAM
		}
		return streamError(id, http2.ErrCodeStreamClosed, errors.New("DATA on a closed stream"))
	}
	if st.state != stateOpen {
		return streamError(id, http2.ErrCodeStreamClosed, errors.New("DATA on a half-closed stream"))
	}
	if n > st.recvWindow {
		return streamError(id, http2.ErrCodeFlowControl, errors.New("DATA beyond the stream window"))
	}
	st.recvWindow -= n
	data := f.Data()
	st.recvd += int64(len(data))
	if cl := st.info.contentLength; cl >= 0 && st.recvd > cl {
		return streamError(id, http2.ErrCodeProtocol, errors.New("more DATA than content-length"))
	}
	if st.grpc && !st.large {
		if len(st.body)+len(data) > c.cfg.MaxMessageSize {
			// Answer now (RESOURCE_EXHAUSTED), then reset the rest.
			st.large = true
			st.body = st.body[:0]
			return c.respond(st)
		}
		st.body = append(st.body, data...)
	}
	if f.StreamEnded() {
		return c.endRequest(st)
	}
	if w := int64(c.cfg.InitialWindowSize); st.recvWindow <= w/2 {
		c.fr.WriteWindowUpdate(id, uint32(w-st.recvWindow))
		st.recvWindow = w
	}
	return nil
}

// endRequest handles the end of a request (END_STREAM received).
func (c *conn) endRequest(st *stream) error {
	st.state = stateHalfClosedRemote
	if cl := st.info.contentLength; cl >= 0 && st.recvd != cl {
		return streamError(st.id, http2.ErrCodeProtocol, errors.New("DATA length differs from content-length"))
	}
	return c.respond(st)
}

// writeHeaderBlock writes a header block as HEADERS and, past the peer's
// maximum frame size, CONTINUATION frames.
func (c *conn) writeHeaderBlock(id uint32, block []byte, endStream bool) {
	max := int(c.peerMaxFrame)
	frag := block[:min(len(block), max)]
	block = block[len(frag):]
	c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: frag, EndStream: endStream, EndHeaders: len(block) == 0})
	for len(block) > 0 {
		frag = block[:min(len(block), max)]
		block = block[len(frag):]
		c.fr.WriteContinuation(id, len(block) == 0, frag)
	}
}

// sendResponse writes the response headers and as much of the body and
// trailers as the flow-control windows allow.
func (c *conn) sendResponse(st *stream, block []byte, body []byte, trailers bool) {
	end := len(body) == 0 && !trailers
	c.writeHeaderBlock(st.id, block, end)
	if end {
		c.finish(st)
		return
	}
	st.out, st.trailers = body, trailers
	c.pushData(st)
}

// pushData sends a stream's pending DATA within the windows, then its
// trailers.
func (c *conn) pushData(st *stream) {
	for len(st.out) > 0 {
		n := min(int64(len(st.out)), c.peerMaxFrame, c.sendWindow, st.sendWindow)
		if n <= 0 {
			if !st.blocked {
				st.blocked = true
				c.blocked = append(c.blocked, st)
			}
			return
		}
		end := int(n) == len(st.out) && !st.trailers
		c.fr.WriteData(st.id, end, st.out[:n])
		c.sendWindow -= n
		st.sendWindow -= n
		st.out = st.out[n:]
	}
	if st.trailers {
		// Encoded only now, so that header blocks reach the peer in the
		// order the encoder produced them.
		c.hbuf = c.codec.appendGRPCTrailers(c.hbuf[:0], st.status, st.msg)
		c.writeHeaderBlock(st.id, c.hbuf, true)
	}
	c.finish(st)
}

// finish closes a stream whose response is complete. If the client is
// still sending, it is told to stop (RST_STREAM NO_ERROR, RFC 9113 §8.1).
func (c *conn) finish(st *stream) {
	if st.state == stateOpen {
		c.writeReset(st.id, http2.ErrCodeNo)
	}
	c.closeStream(st)
}

// sendBlocked resumes the streams waiting for window.
func (c *conn) sendBlocked() {
	for len(c.blocked) > 0 && c.sendWindow > 0 {
		progress := false
		for i := 0; i < len(c.blocked); {
			st := c.blocked[i]
			if st.sendWindow <= 0 {
				i++
				continue
			}
			c.blocked = slices.Delete(c.blocked, i, i+1)
			st.blocked = false
			c.pushData(st) // may append st again, at the end
			progress = true
			if c.sendWindow <= 0 {
				return
			}
		}
		if !progress {
			return
		}
	}
}
