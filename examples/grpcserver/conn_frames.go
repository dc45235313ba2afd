package main

import (
	"errors"

	"golang.org/x/net/http2"
)

func (c *conn) processFrame(f http2.Frame) error {
	// HEADERS frames, with their CONTINUATION frames, go to
	// processHeaders.
	switch f := f.(type) {
	case *http2.DataFrame:
		return c.processData(f)
	case *http2.SettingsFrame:
		return c.processSettings(f)
	case *http2.PingFrame:
		return c.processPing(f)
	case *http2.WindowUpdateFrame:
		return c.processWindowUpdate(f)
	case *http2.RSTStreamFrame:
		if f.StreamID > c.maxStreamID {
			return connError{http2.ErrCodeProtocol, "RST_STREAM on an idle stream"}
		}
		if st := c.streams[f.StreamID]; st != nil {
			c.closeStream(st, errStreamReset)
			if err := c.live.streamReset(); err != nil {
				return err
			}
		}
	case *http2.PriorityFrame:
		if f.StreamDep == f.StreamID {
			return streamError(f.StreamID, http2.ErrCodeProtocol, errors.New("stream depends on itself"))
		}
	case *http2.GoAwayFrame:
		c.peerGoAway = true
		if f.ErrCode != http2.ErrCodeNo {
			// The client gave up on the connection: stop its calls.
			return connError{http2.ErrCodeNo, "client sent GOAWAY " + f.ErrCode.String()}
		}
		c.maybeFinishDrain()
	case *http2.PushPromiseFrame:
		return connError{http2.ErrCodeProtocol, "PUSH_PROMISE from a client"}
	}
	// Unknown frame types are ignored.
	return nil
}

func (c *conn) processPing(f *http2.PingFrame) error {
	if f.IsAck() {
		c.live.pingAck(f.Data)
		return nil
	}
	if err := c.live.clientPing(len(c.streams)); err != nil {
		return err
	}
	if !c.controlRoom() {
		return connError{http2.ErrCodeEnhanceYourCalm, "client does not read our replies"}
	}
	c.fr.WritePing(true, f.Data)
	return nil
}

func (c *conn) processSettings(f *http2.SettingsFrame) error {
	if f.IsAck() {
		if c.unacked > 0 {
			c.unacked--
			// The client now uses our table size: so may the decoder
			// (on the reader goroutine, as readHeaderBlock).
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
	if !c.controlRoom() {
		return connError{http2.ErrCodeEnhanceYourCalm, "client does not read our replies"}
	}
	c.fr.WriteSettingsAck()
	c.wakeAll()
	return nil
}

func (c *conn) processWindowUpdate(f *http2.WindowUpdateFrame) error {
	inc := int64(f.Increment)
	if f.StreamID == 0 {
		if c.sendWindow += inc; c.sendWindow > maxWindow {
			return connError{http2.ErrCodeFlowControl, "connection window above 2^31-1"}
		}
		if c.outWaiters > 0 {
			c.wakeAll()
		}
		return nil
	}
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
	st.cond.Broadcast()
	return nil
}
