package main

import (
	"errors"
	"fmt"

	mphpack "github.com/metapack/metapack/hpack"
	"golang.org/x/net/http2"
)

// headerBlock is the header block being received.
type headerBlock struct {
	streamID      uint32
	endStream     bool
	selfDependent bool
	// ignore is set for a block on a stream we reset: it is decoded, to
	// keep the HPACK state in sync, and dropped.
	ignore bool
	// refused is set once a new stream's block has gone over the header
	// list limits before its last fragment: the stream was answered at
	// once, and the rest of the block is decoded and dropped.
	refused       bool
	frames, bytes int
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
		// Refuse a new stream as soon as its list is over the limits;
		// the rest of the block still goes through the decoder.
		hb := &c.hb
		if !hb.refused && !hb.ignore && !c.goAwaySent && c.streams[hb.streamID] == nil && c.codec.blockErr() != nil {
			hb.refused = true
			c.refuseHeaderList(hb.streamID, hb.endStream)
		}
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
	if hb.refused {
		c.maxStreamID = id
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
