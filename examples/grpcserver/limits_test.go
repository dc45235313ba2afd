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
func TestHeaderListOverAdvertised(t *testing.T) {
	for _, tc := range []struct {
		name  string
		extra []string
	}{
		{"one-value", []string{"x-echo-big", strings.Repeat("b", 70000)}},
		{"many-values", []string{"x-echo-a", strings.Repeat("a", 30000), "x-echo-b", strings.Repeat("b", 30000), "x-echo-c", strings.Repeat("c", 10000)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			forBothCodecs(t, Config{}, func(t *testing.T, addr string) {
				c := newRawClient(t, addr)
				c.handshake()
				c.enc.SetMaxDynamicTableSizeLimit(4096)
				big := c.block(grpcRequest(append([]string{"x-echo-small", "s"}, tc.extra...)...)...)
				c.writeBlock(1, big, false)
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

// TestHeaderListRefusedEarly: a header list that goes over the limit in
// its first fragment is refused (431) before the client has sent the
// rest of the block; the rest still goes through the decoder, so an
// entry it adds can be used by the next request.
func TestHeaderListRefusedEarly(t *testing.T) {
	forBothCodecs(t, Config{MaxHeaderListSize: 4096}, func(t *testing.T, addr string) {
		c := newRawClient(t, addr)
		c.handshake()
		first := c.block(grpcRequest("x-big", strings.Repeat("b", 5000))...)
		rest := c.block("x-echo-later", "l")
		if err := c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: first, EndStream: true}); err != nil {
			t.Fatal(err)
		}
		c.nc.SetReadDeadline(time.Now().Add(5 * time.Second))
		r := c.readResponse(1, false) // before the block's end
		if r.get(":status") != "431" {
			t.Fatalf("over the limit: %+v, want a 431 response", r)
		}
		c.nc.SetReadDeadline(time.Now().Add(20 * time.Second))
		if err := c.fr.WriteContinuation(1, true, rest); err != nil {
			t.Fatal(err)
		}
		c.writeBlock(3, c.block(grpcRequest("x-echo-later", "l")...), false)
		c.fr.WriteData(3, true, frameMessage([]byte("ok")))
		if r := c.readResponse(3, false); r.get("grpc-status") != "0" || r.get("x-echo-later") != "l" {
			t.Fatalf("next request: %+v", r)
		}
	})
}
