package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"google.golang.org/grpc/metadata"
)

// TestHeaderListWithinAdvertised: header lists inside the
// SETTINGS_MAX_HEADER_LIST_SIZE we advertise (64 KiB by default) are
// served, however the size is made up: one value just past 16 KiB, one
// value near the whole limit, many fields.
func TestHeaderListWithinAdvertised(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		md   metadata.MD
	}{
		{"one-16385-byte-value", Config{}, metadata.Pairs("x-big", strings.Repeat("v", 16385))},
		{"one-60000-byte-value", Config{}, metadata.Pairs("x-big", strings.Repeat("v", 60000))},
		{"200-fields", Config{}, manyFields(200, 100)},
		// A larger advertised size raises the string and block limits too.
		{"list-256KiB-one-200000-byte-value", Config{MaxHeaderListSize: 256 << 10}, metadata.Pairs("x-big", strings.Repeat("v", 200000))},
		{"list-1MiB-one-900000-byte-value", Config{MaxHeaderListSize: 1 << 20}, metadata.Pairs("x-big", strings.Repeat("v", 900000))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			forBothCodecs(t, tc.cfg, func(t *testing.T, addr string) {
				cc := dial(t, addr)
				ctx, cancel := context.WithTimeout(metadata.NewOutgoingContext(context.Background(), tc.md), 20*time.Second)
				defer cancel()
				for i := range 3 { // the same connection serves every call
					in := []byte("hello")
					var out []byte
					if err := cc.Invoke(ctx, "/echo.Echo/Echo", &in, &out); err != nil || string(out) != "hello" {
						t.Fatalf("call %d: %q, %v", i, out, err)
					}
				}
			})
		})
	}
}

func manyFields(n, size int) metadata.MD {
	md := metadata.MD{}
	for i := range n {
		md.Append("x-f-"+strings.Repeat("k", i%7)+string(rune('a'+i%26))+string(rune('a'+i/26)), strings.Repeat("v", size))
	}
	return md
}

// TestHeaderListOverAdvertised: a header list over the advertised size,
// in one field or in many, is refused on its own stream (a 431 response),
// and the connection goes on, its HPACK state in sync: the next request
// refers by index to the entries the refused block added.
//
// With the xnet codec, a value longer than the list size ends the
// connection with COMPRESSION_ERROR: x/net's string limit is the list
// size, and a string over it does not decode (the StringOverList
// difference of headerblock).
func TestHeaderListOverAdvertised(t *testing.T) {
	for _, tc := range []struct {
		name           string
		extra          []string
		stringOverList bool
	}{
		{"one-value", []string{"x-echo-big", strings.Repeat("b", 70000)}, true},
		{"many-values", []string{"x-echo-a", strings.Repeat("a", 30000), "x-echo-b", strings.Repeat("b", 30000), "x-echo-c", strings.Repeat("c", 10000)}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			forEachCodec(t, Config{}, func(t *testing.T, codec, addr string) {
				c := newRawClient(t, addr)
				c.handshake()
				c.enc.SetMaxDynamicTableSizeLimit(4096)
				big := c.block(grpcRequest(append([]string{"x-echo-small", "s"}, tc.extra...)...)...)
				c.writeBlock(1, big, false)
				if codec == codecXnet && tc.stringOverList {
					c.expectGoAway(http2.ErrCodeCompression) // StringOverList
					return
				}
				c.fr.WriteData(1, true, frameMessage([]byte("x")))
				r := c.readResponse(1, false)
				if r.rst != nil || r.get(":status") != "431" {
					t.Fatalf("over the limit: %+v, want a 431 response", r)
				}
				// x-echo-small went into both tables: this block refers to it.
				c.writeBlock(3, c.block(grpcRequest("x-echo-small", "s")...), false)
				c.fr.WriteData(3, true, frameMessage([]byte("ping")))
				r = c.readResponse(3, false)
				if r.rst != nil || r.get("grpc-status") != "0" || r.get("x-echo-small") != "s" {
					t.Fatalf("next request: %+v", r)
				}
			})
		})
	}
}

// writeBlock writes a header block as HEADERS and CONTINUATION frames of
// at most 16 KiB.
func (c *rawClient) writeBlock(id uint32, block []byte, endStream bool) {
	c.t.Helper()
	const max = 16384
	frag := block[:min(len(block), max)]
	block = block[len(frag):]
	if err := c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: frag, EndStream: endStream, EndHeaders: len(block) == 0}); err != nil {
		c.t.Fatal(err)
	}
	for len(block) > 0 {
		frag = block[:min(len(block), max)]
		block = block[len(frag):]
		if err := c.fr.WriteContinuation(id, len(block) == 0, frag); err != nil {
			c.t.Fatal(err)
		}
	}
}

// TestHeaderListOverLimitThenContinuation: a header list that goes over
// the limit in its block's first fragment is refused (431) once the block
// ends, however many CONTINUATION frames follow: the server reads the
// rest of the block through the decoder (headerblock.Reader with
// SetStreamErrors), so an entry it adds can be used by the next request,
// and the connection goes on. The list goes over in one value longer
// than the limit, or in values each within it.
//
// x/net's read path (the xnet codec) ends the connection instead: a value
// longer than the list size does not decode, COMPRESSION_ERROR (the
// StringOverList difference), and a CONTINUATION frame after the list
// went over is a PROTOCOL_ERROR (the rule headerblock's SetStreamErrors
// turns off).
func TestHeaderListOverLimitThenContinuation(t *testing.T) {
	for _, tc := range []struct {
		name     string
		extra    []string
		xnetCode http2.ErrCode
	}{
		{"one-value", []string{"x-big", strings.Repeat("b", 5000)}, http2.ErrCodeCompression},
		{"values-within-the-limit", []string{"x-big-a", strings.Repeat("a", 2500), "x-big-b", strings.Repeat("b", 2500)}, http2.ErrCodeProtocol},
	} {
		t.Run(tc.name, func(t *testing.T) {
			forEachCodec(t, Config{MaxHeaderListSize: 4096}, func(t *testing.T, codec, addr string) {
				c := newRawClient(t, addr)
				c.handshake()
				first := c.block(grpcRequest(tc.extra...)...)
				rest := c.block("x-echo-later", "l")
				if err := c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: first, EndStream: true}); err != nil {
					t.Fatal(err)
				}
				if err := c.fr.WriteContinuation(1, true, rest); err != nil {
					t.Fatal(err)
				}
				if codec == codecXnet {
					c.expectGoAway(tc.xnetCode)
					return
				}
				if r := c.readResponse(1, false); r.get(":status") != "431" {
					t.Fatalf("over the limit: %+v, want a 431 response", r)
				}
				// x-echo-later went into both tables: this block refers to it.
				c.writeBlock(3, c.block(grpcRequest("x-echo-later", "l")...), false)
				c.fr.WriteData(3, true, frameMessage([]byte("ok")))
				if r := c.readResponse(3, false); r.get("grpc-status") != "0" || r.get("x-echo-later") != "l" {
					t.Fatalf("next request: %+v", r)
				}
			})
		})
	}
}

// TestInvalidFieldsReset: a request or trailers with a field RFC 9113
// §8.2.1 forbids (checked as the block is read, as x/net's Framer does)
// get RST_STREAM PROTOCOL_ERROR, and the connection goes on, its HPACK
// state in sync. Too many fields get 431, as a list over the size does.
func TestInvalidFieldsReset(t *testing.T) {
	forBothCodecs(t, Config{MaxHeaderFields: 20}, func(t *testing.T, addr string) {
		c := newRawClient(t, addr)
		c.handshake()
		id := uint32(1)
		for _, extra := range [][]string{
			{"x-echo-bad", "a\x01b"},     // a control character in a value
			{"X-Echo-Upper", "v"},        // upper case in a name
			{"x-echo-a", "1", ":x", "y"}, // a pseudo-header field after a regular one
		} {
			c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, EndHeaders: true, EndStream: true, BlockFragment: c.block(grpcRequest(extra...)...)})
			if r := c.readResponse(id, false); r.rst == nil || *r.rst != http2.ErrCodeProtocol {
				t.Fatalf("request with %q: %+v, want RST_STREAM PROTOCOL_ERROR", extra, r)
			}
			id += 2
		}
		// Trailers with an invalid value.
		c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, EndHeaders: true, BlockFragment: c.block(grpcRequest()...)})
		c.fr.WriteData(id, false, frameMessage([]byte("x")))
		c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, EndHeaders: true, EndStream: true, BlockFragment: c.block("x-trailer", "a\nb")})
		for {
			if rst, ok := c.read().(*http2.RSTStreamFrame); ok && rst.StreamID == id {
				if rst.ErrCode != http2.ErrCodeProtocol {
					t.Fatalf("invalid trailers: RST_STREAM %v, want PROTOCOL_ERROR", rst.ErrCode)
				}
				break
			}
		}
		id += 2
		var many []string
		for i := range 20 {
			many = append(many, "x-f", string(rune('a'+i)))
		}
		c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, EndHeaders: true, EndStream: true, BlockFragment: c.block(grpcRequest(many...)...)})
		if r := c.readResponse(id, false); r.get(":status") != "431" {
			t.Fatalf("26 fields with MaxHeaderFields 20: %+v, want 431", r)
		}
		id += 2
		// The entries the refused blocks added are in the server's table.
		c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, EndHeaders: true, BlockFragment: c.block(grpcRequest("x-echo-a", "1")...)})
		c.fr.WriteData(id, true, frameMessage([]byte("ok")))
		if r := c.readResponse(id, false); r.get("grpc-status") != "0" || r.get("x-echo-a") != "1" {
			t.Fatalf("next request: %+v", r)
		}
	})
}
