package main

import (
	"errors"

	"golang.org/x/net/http2"
)

// headerBlock is a header block the reader goroutine has read, whole,
// before it takes conn.mu (see readHeaderBlock).
type headerBlock struct {
	streamID      uint32
	endStream     bool
	selfDependent bool
	// truncated and err are the codec's readHeaders results.
	truncated bool
	err       error
}

// readHeaderBlock picks out a header block from what ReadFrame returned
// (f, readErr), reads the rest of it and decodes it, and reports whether
// there was one. The reader goroutine calls it without conn.mu: a client
// that is slow to send the rest of a block holds up no handler. What the
// Framer returns depends on the codec (headerCodec.setFramer):
//   - an *http2.HeadersFrame: the codec reads the block's CONTINUATION
//     frames (metapackCodec, with a headerblock.Reader);
//   - an *http2.MetaHeadersFrame, with or without an error: the Framer
//     has read and decoded the whole block (xnetCodec, x/net's read
//     path);
//   - no frame and a StreamError whose Cause is set: a block with an
//     invalid field, which x/net's Framer reports so (the Framer's other
//     stream errors, such as a HEADERS frame's bad padding, have none).
func (c *conn) readHeaderBlock(f http2.Frame, readErr error) (headerBlock, bool) {
	var hf *http2.HeadersFrame
	switch f := f.(type) {
	case *http2.HeadersFrame:
		hf = f
	case *http2.MetaHeadersFrame:
		hf = f.HeadersFrame
	default:
		var se http2.StreamError
		if f == nil && c.fr.ReadMetaHeaders != nil && errors.As(readErr, &se) && se.Cause != nil {
			return headerBlock{streamID: se.StreamID, err: se}, true
		}
		return headerBlock{}, false
	}
	hb := headerBlock{
		streamID:      hf.StreamID,
		endStream:     hf.StreamEnded(),
		selfDependent: hf.HasPriority() && hf.Priority.StreamDep == hf.StreamID,
	}
	hb.truncated, hb.err = c.codec.readHeaders(c.fr, f, readErr)
	return hb, true
}

// processHeaders acts on a header block read by readHeaderBlock.
func (c *conn) processHeaders(hb headerBlock) error {
	id := hb.streamID
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
	var se http2.StreamError
	if hb.err != nil && !errors.As(hb.err, &se) {
		return c.blockConnError(hb.err)
	}
	if ignore {
		// Decoded, to keep the HPACK state in sync, and dropped.
		c.codec.discardBlock()
		return nil
	}
	return c.endBlock(hb, se)
}

// blockConnError gives a connection error from reading a header block the
// codec's reason, for the GOAWAY frame. The Framer's own errors, from
// reading a CONTINUATION frame, go as they are: handleErr gives the
// Framer's detail.
func (c *conn) blockConnError(err error) error {
	var ce http2.ConnectionError
	if d := c.codec.errorDetail(); d != nil && errors.As(err, &ce) {
		return connError{http2.ErrCode(ce), d.Error()}
	}
	return err
}

// endBlock acts on a complete header block of a stream that is not
// ignored; se is the block's stream error, if any: a header list over the
// limits (ErrCodeEnhanceYourCalm) or an invalid field.
func (c *conn) endBlock(hb headerBlock, se http2.StreamError) error {
	id := hb.streamID
	var limitErr, fieldErr error
	switch {
	case hb.err == nil:
	case se.Code == http2.ErrCodeEnhanceYourCalm:
		limitErr = se.Cause
	default:
		fieldErr = se.Cause
	}
	st := c.streams[id]
	if st == nil { // a new stream
		c.maxStreamID = id
		var err error
		switch {
		case c.goAwaySent:
			// Past our GOAWAY: ignored.
		case limitErr != nil:
			c.refuseHeaderList(id, hb.endStream)
			return nil
		case fieldErr != nil:
			return streamError(id, http2.ErrCodeProtocol, fieldErr)
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
				if err := c.endRequest(st); err != nil {
					return err
				}
			}
			c.startHandler(st)
			return nil
		}
		c.codec.discardBlock()
		return err
	}
	// Trailers of an open stream.
	if limitErr != nil {
		return streamError(id, http2.ErrCodeEnhanceYourCalm, limitErr)
	}
	if fieldErr != nil {
		return streamError(id, http2.ErrCodeProtocol, fieldErr)
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
