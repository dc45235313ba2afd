package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

var (
	serverStreamDesc = &grpc.StreamDesc{StreamName: "ServerStreamingEcho", ServerStreams: true}
	clientStreamDesc = &grpc.StreamDesc{StreamName: "ClientStreamingEcho", ClientStreams: true}
	bidiStreamDesc   = &grpc.StreamDesc{StreamName: "BidirectionalStreamingEcho", ServerStreams: true, ClientStreams: true}
)

// TestStreamingMethods drives the echo service's streaming methods with
// grpc-go: server streaming (three replies to one message), client
// streaming (one reply, the last message, after the client's last
// message) and bidirectional streaming (each message echoed before the
// next is sent).
func TestStreamingMethods(t *testing.T) {
	forBothCodecs(t, Config{}, func(t *testing.T, addr string) {
		cc := dial(t, addr)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()

		t.Run("ServerStreamingEcho", func(t *testing.T) {
			s, err := cc.NewStream(ctx, serverStreamDesc, "/echo.Echo/ServerStreamingEcho")
			if err != nil {
				t.Fatal(err)
			}
			in := payload(1, 3000)
			if err := s.SendMsg(&in); err != nil {
				t.Fatal(err)
			}
			s.CloseSend()
			for i := range serverStreamReplies + 1 {
				var out []byte
				err := s.RecvMsg(&out)
				if i == serverStreamReplies {
					if err != io.EOF {
						t.Fatalf("after %d replies: %v, want EOF", i, err)
					}
					break
				}
				if err != nil || !bytes.Equal(out, in) {
					t.Fatalf("reply %d: %d bytes, %v", i, len(out), err)
				}
			}
		})

		t.Run("ClientStreamingEcho", func(t *testing.T) {
			s, err := cc.NewStream(ctx, clientStreamDesc, "/echo.Echo/ClientStreamingEcho")
			if err != nil {
				t.Fatal(err)
			}
			var last []byte
			for i := range 5 {
				last = payload(i, 100*i+1)
				if err := s.SendMsg(&last); err != nil {
					t.Fatal(err)
				}
			}
			s.CloseSend()
			var out []byte
			if err := s.RecvMsg(&out); err != nil || !bytes.Equal(out, last) {
				t.Fatalf("reply: %d bytes, %v; want the last message", len(out), err)
			}
			if err := s.RecvMsg(&out); err != io.EOF {
				t.Fatalf("after the reply: %v, want EOF", err)
			}
		})

		t.Run("BidirectionalStreamingEcho", func(t *testing.T) {
			s, err := cc.NewStream(ctx, bidiStreamDesc, "/echo.Echo/BidirectionalStreamingEcho")
			if err != nil {
				t.Fatal(err)
			}
			for i := range 10 {
				in := payload(i, 50000*i+7)
				if err := s.SendMsg(&in); err != nil {
					t.Fatal(err)
				}
				var out []byte
				if err := s.RecvMsg(&out); err != nil || !bytes.Equal(out, in) {
					t.Fatalf("message %d: %d bytes echoed, %v", i, len(out), err)
				}
			}
			s.CloseSend()
			var out []byte
			if err := s.RecvMsg(&out); err != io.EOF {
				t.Fatalf("after CloseSend: %v, want EOF", err)
			}
		})
	})
}

// TestConcurrentHandlers: calls on one connection run concurrently. Idle
// bidirectional streams, whose handlers wait for input, do not hold up
// 200 unary calls on the same connection; cancelling them (RST_STREAM
// CANCEL from grpc-go) cancels their handlers, which end.
func TestConcurrentHandlers(t *testing.T) {
	for _, codec := range []string{codecMetapack, codecXnet} {
		t.Run(codec, func(t *testing.T) {
			srv, addr := startServerWith(t, Config{Codec: codec})
			cc := dial(t, addr)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			streamCtx, cancelStreams := context.WithCancel(ctx)
			var idle []grpc.ClientStream
			for i := range 10 {
				s, err := cc.NewStream(streamCtx, bidiStreamDesc, "/echo.Echo/BidirectionalStreamingEcho")
				if err != nil {
					t.Fatal(err)
				}
				in := []byte(fmt.Sprint("idle ", i))
				var out []byte
				if err := s.SendMsg(&in); err != nil {
					t.Fatal(err)
				}
				if err := s.RecvMsg(&out); err != nil || !bytes.Equal(in, out) {
					t.Fatalf("idle stream %d: %q, %v", i, out, err)
				}
				idle = append(idle, s)
			}
			var wg sync.WaitGroup
			errs := make(chan error, 200)
			for i := range 200 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if err := echoCall(cc, i); err != nil {
						errs <- fmt.Errorf("call %d: %w", i, err)
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			// The unary calls' handlers end; the idle streams' stay.
			for srv.activeHandlers.Load() != int64(len(idle)) {
				if ctx.Err() != nil {
					t.Fatalf("%d handlers running, want the %d idle streams'", srv.activeHandlers.Load(), len(idle))
				}
				time.Sleep(10 * time.Millisecond)
			}
			cancelStreams()
			for _, s := range idle {
				var out []byte
				if err := s.RecvMsg(&out); status.Code(err) != codes.Canceled {
					t.Fatalf("cancelled stream: %v", err)
				}
			}
			for srv.activeHandlers.Load() != 0 {
				if ctx.Err() != nil {
					t.Fatalf("%d handlers still running after their streams were reset", srv.activeHandlers.Load())
				}
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
}

// TestHandlerCancellation: a handler waiting for the client's next
// message ends when its call is cancelled, by each of the ways a call
// ends from outside: RST_STREAM, a GOAWAY with an error, the connection's
// close, and the deadline.
func TestHandlerCancellation(t *testing.T) {
	for _, tc := range []struct {
		name    string
		timeout string
		cancel  func(c *rawClient)
	}{
		{"RST_STREAM", "", func(c *rawClient) { c.fr.WriteRSTStream(1, http2.ErrCodeCancel) }},
		{"GOAWAY", "", func(c *rawClient) { c.fr.WriteGoAway(0, http2.ErrCodeInternal, nil) }},
		{"connection-close", "", func(c *rawClient) { c.nc.Close() }},
		{"deadline", "200m", func(c *rawClient) {}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, addr := startServerWith(t, Config{})
			c := newRawClient(t, addr)
			c.handshake()
			req := grpcRequest()
			if tc.timeout != "" {
				req = append(req, "grpc-timeout", tc.timeout)
			}
			req[5] = "/echo.Echo/BidirectionalStreamingEcho"
			c.writeBlock(1, c.block(req...), false)
			c.fr.WriteData(1, false, frameMessage([]byte("one")))
			for { // the echo: the handler is running, and waits for more
				if d, ok := c.read().(*http2.DataFrame); ok && len(d.Data()) > 0 {
					break
				}
			}
			if n := srv.activeHandlers.Load(); n != 1 {
				t.Fatalf("%d handlers running, want 1", n)
			}
			tc.cancel(c)
			deadline := time.Now().Add(10 * time.Second)
			for srv.activeHandlers.Load() != 0 {
				if time.Now().After(deadline) {
					t.Fatal("the handler did not end")
				}
				time.Sleep(5 * time.Millisecond)
			}
		})
	}
}
