package main

import (
	"bytes"
	"testing"
	"time"
)

// TestDeadline: grpc-timeout is enforced. A unary call whose body comes
// after its deadline gets DEADLINE_EXCEEDED, not OK; a bidirectional call
// whose handler waits for the client's next message is ended at its
// deadline with DEADLINE_EXCEEDED, without the client sending anything
// more (the handler's wait is cancelled).
func TestDeadline(t *testing.T) {
	forBothCodecs(t, Config{}, func(t *testing.T, addr string) {
		c := newRawClient(t, addr)
		c.handshake()

		c.writeBlock(1, c.block(grpcRequest("grpc-timeout", "50m")...), false)
		time.Sleep(300 * time.Millisecond)
		c.fr.WriteData(1, true, frameMessage([]byte("late")))
		if r := c.readResponse(1, false); r.get("grpc-status") != "4" {
			t.Fatalf("body after the deadline: %+v, want grpc-status 4", r)
		}

		req := grpcRequest("grpc-timeout", "300m")
		req[5] = "/echo.Echo/BidirectionalStreamingEcho"
		start := time.Now()
		c.writeBlock(3, c.block(req...), false)
		c.fr.WriteData(3, false, frameMessage([]byte("one")))
		r := c.readResponse(3, false) // the echo, then the trailers, with no more input
		if !bytes.Equal(r.data, frameMessage([]byte("one"))) || r.get("grpc-status") != "4" {
			t.Fatalf("bidi call past its deadline: %+v, want the echo and grpc-status 4", r)
		}
		if d := time.Since(start); d < 250*time.Millisecond {
			t.Fatalf("ended after %v, before its 300 ms deadline", d)
		}
	})
}
