package main

import (
	"strings"
	"testing"

	"golang.org/x/net/http2"
)

// TestFramesAfterOurReset: once we reset a stream, the frames the client
// sent before it saw the RST_STREAM are ignored (RFC 9113 §5.1), not
// answered with RST_STREAM(STREAM_CLOSED) or GOAWAY; trailers on such a
// stream are still decoded, so the HPACK state stays in sync.
func TestFramesAfterOurReset(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		// start opens stream 1 in a way that makes the server reset it,
		// with the codec, and returns the code the server resets it with.
		start func(c *rawClient, codec string) http2.ErrCode
	}{
		{"malformed-request", Config{}, func(c *rawClient, codec string) http2.ErrCode {
			c.writeBlock(1, c.block(grpcRequest("X-Upper", "v")...), false)
			return http2.ErrCodeProtocol
		}},
		{"header-list-over-the-limit", Config{MaxHeaderListSize: 1024}, func(c *rawClient, codec string) http2.ErrCode {
			if codec == codecXnet {
				// header-list-over-the-limit-in-fields tests x/net.
				c.t.Skip("StringOverList: x/net ends the connection on a value longer than the list size")
			}
			c.writeBlock(1, c.block(grpcRequest("x-big", strings.Repeat("b", 2000))...), false)
			return http2.ErrCodeNo // after the 431 response
		}},
		{"header-list-over-the-limit-in-fields", Config{MaxHeaderListSize: 1024}, func(c *rawClient, codec string) http2.ErrCode {
			c.writeBlock(1, c.block(grpcRequest("x-big-a", strings.Repeat("a", 600), "x-big-b", strings.Repeat("b", 600))...), false)
			return http2.ErrCodeNo // after the 431 response
		}},
		{"message-over-the-limit", Config{MaxMessageSize: 1000}, func(c *rawClient, codec string) http2.ErrCode {
			c.writeBlock(1, c.block(grpcRequest()...), false)
			c.fr.WriteData(1, false, make([]byte, 2000))
			return http2.ErrCodeNo // after the RESOURCE_EXHAUSTED response
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			forEachCodec(t, tc.cfg, func(t *testing.T, codec, addr string) {
				c := newRawClient(t, addr)
				c.handshake()
				want := tc.start(c, codec)
				// Wait for the reset, then send what a client may have had
				// in flight: DATA, and trailers that index a new entry.
				for {
					f := c.read()
					if rst, ok := f.(*http2.RSTStreamFrame); ok {
						if rst.StreamID != 1 || rst.ErrCode != want {
							t.Fatalf("RST_STREAM %v on %d, want %v on 1", rst.ErrCode, rst.StreamID, want)
						}
						break
					}
					if ga, ok := f.(*http2.GoAwayFrame); ok {
						t.Fatalf("GOAWAY %v %q", ga.ErrCode, ga.DebugData())
					}
					if h, ok := f.(*http2.HeadersFrame); ok { // a response before the reset: keep our decoder in sync
						if _, err := c.dec.DecodeFull(h.HeaderBlockFragment()); err != nil {
							t.Fatal(err)
						}
					}
				}
				c.fr.WriteData(1, false, []byte("late"))
				c.writeBlock(1, c.block("x-late-trailer", "t"), true)
				c.fr.WriteData(1, true, []byte("later"))
				c.fr.WritePing(false, [8]byte{7})
				for {
					f := c.read()
					if p, ok := f.(*http2.PingFrame); ok && p.IsAck() {
						break
					}
					switch f := f.(type) {
					case *http2.RSTStreamFrame:
						t.Fatalf("late frames answered with RST_STREAM %v on stream %d", f.ErrCode, f.StreamID)
					case *http2.GoAwayFrame:
						t.Fatalf("late frames answered with GOAWAY %v %q", f.ErrCode, f.DebugData())
					}
				}
				// The trailers' new entry is in the server's table.
				c.writeBlock(3, c.block(grpcRequest("x-late-trailer", "t")...), false)
				c.fr.WriteData(3, true, frameMessage([]byte("ok")))
				if r := c.readResponse(3, false); r.get("grpc-status") != "0" {
					t.Fatalf("next request: %+v", r)
				}
			})
		})
	}
}
