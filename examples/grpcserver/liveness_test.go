package main

import (
	"testing"
	"time"

	"golang.org/x/net/http2"
)

// TestIdleTimeout: a connection with no stream for IdleTimeout gets
// GOAWAY(NO_ERROR) and is closed; one with a stream in flight is not.
func TestIdleTimeout(t *testing.T) {
	addr := startServer(t, Config{IdleTimeout: 300 * time.Millisecond})
	c := newRawClient(t, addr)
	c.handshake()
	// A stream in flight for longer than the timeout keeps it open.
	c.writeBlock(1, c.block(grpcRequest()...), false)
	time.Sleep(600 * time.Millisecond)
	c.fr.WriteData(1, true, frameMessage([]byte("still here")))
	if r := c.readResponse(1, false); r.get("grpc-status") != "0" {
		t.Fatalf("call across the idle timeout: %+v", r)
	}
	// Idle now: GOAWAY(NO_ERROR), then the close.
	c.expectGoAway(http2.ErrCodeNo)
}

// TestKeepalivePing: a connection silent for KeepaliveTime gets a PING; a
// client that answers it stays connected, one that does not is closed
// after KeepaliveTimeout.
func TestKeepalivePing(t *testing.T) {
	addr := startServer(t, Config{KeepaliveTime: 200 * time.Millisecond, KeepaliveTimeout: 300 * time.Millisecond})
	c := newRawClient(t, addr)
	c.handshake()
	for range 2 { // answered twice: still open
		for {
			if p, ok := c.read().(*http2.PingFrame); ok && !p.IsAck() {
				c.fr.WritePing(true, p.Data)
				break
			}
		}
	}
	c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, EndHeaders: true, EndStream: true,
		BlockFragment: c.block(":method", "GET", ":scheme", "http", ":path", "/hello", ":authority", "x")})
	if r := c.readResponse(1, false); r.get(":status") != "200" {
		t.Fatalf("after answered PINGs: %+v", r)
	}
	// Not answered: GOAWAY and close.
	c.expectGoAway(http2.ErrCodeNo)
}

// TestPingPolicy: client PINGs closer together than MinPingInterval, with
// nothing sent by us between them, get GOAWAY ENHANCE_YOUR_CALM at the
// third strike; PINGs spaced out, or with responses between them, do
// not.
func TestPingPolicy(t *testing.T) {
	addr := startServer(t, Config{MinPingInterval: time.Hour})
	c := newRawClient(t, addr)
	c.handshake()
	ping := func() {
		c.fr.WritePing(false, [8]byte{9})
		for {
			if p, ok := c.read().(*http2.PingFrame); ok && p.IsAck() {
				return
			}
		}
	}
	// PINGs with responses between them are fine.
	for i := range 5 {
		ping()
		id := uint32(2*i + 1)
		c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, EndHeaders: true, EndStream: true,
			BlockFragment: c.block(":method", "GET", ":scheme", "http", ":path", "/hello", ":authority", "x")})
		c.readResponse(id, false)
	}
	ping() // the first since the last response: no strike
	ping() // strike 1
	ping() // strike 2
	c.fr.WritePing(false, [8]byte{9})
	c.expectGoAway(http2.ErrCodeEnhanceYourCalm)

	c = newRawClient(t, startServer(t, Config{MinPingInterval: 50 * time.Millisecond}))
	c.handshake()
	for range 5 {
		time.Sleep(80 * time.Millisecond)
		ping()
	}
}

// TestRapidReset (CVE-2023-44487): a client that opens and resets
// streams faster than MaxResetsPerSecond (past ResetBurst) gets GOAWAY
// ENHANCE_YOUR_CALM; resets within the rate are fine.
func TestRapidReset(t *testing.T) {
	addr := startServer(t, Config{MaxResetsPerSecond: 10, ResetBurst: 20})
	c := newRawClient(t, addr)
	c.handshake()
	id := uint32(1)
	openReset := func() {
		c.writeBlock(id, c.block(grpcRequest()...), false)
		c.fr.WriteRSTStream(id, http2.ErrCodeCancel)
		id += 2
	}
	for range 15 { // within the burst
		openReset()
	}
	c.fr.WritePing(false, [8]byte{1})
	for {
		f := c.read()
		if ga, ok := f.(*http2.GoAwayFrame); ok {
			t.Fatalf("GOAWAY %v within the burst", ga.ErrCode)
		}
		if p, ok := f.(*http2.PingFrame); ok && p.IsAck() {
			break
		}
	}
	go func() { // the server may close the connection while we write
		for range 1000 {
			if c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, EndHeaders: true, BlockFragment: c.block(grpcRequest()...)}) != nil ||
				c.fr.WriteRSTStream(id, http2.ErrCodeCancel) != nil {
				return
			}
			id += 2
		}
	}()
	c.expectGoAway(http2.ErrCodeEnhanceYourCalm)
}

// TestUnsupportedMediaType: a gRPC method called without a gRPC
// content-type gets HTTP 415.
func TestUnsupportedMediaType(t *testing.T) {
	forBothCodecs(t, Config{}, func(t *testing.T, addr string) {
		c := newRawClient(t, addr)
		c.handshake()
		for i, ct := range []string{"text/plain", "application/json", "application/grpcx"} {
			id := uint32(2*i + 1)
			c.writeBlock(id, c.block(":method", "POST", ":scheme", "http", ":path", "/echo.Echo/Echo", ":authority", "x", "content-type", ct), false)
			c.fr.WriteData(id, true, frameMessage([]byte("hi")))
			if r := c.readResponse(id, false); r.get(":status") != "415" {
				t.Errorf("content-type %s: %+v, want 415", ct, r)
			}
		}
	})
}
