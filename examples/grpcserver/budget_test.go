package main

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// TestMessageMemoryWaits: concurrent calls whose messages together need
// more than MaxConnMessageBytes wait for each other and all succeed; none
// is refused while the connection can make progress.
func TestMessageMemoryWaits(t *testing.T) {
	for _, tc := range []struct {
		name       string
		cfg        Config
		calls, len int
	}{
		{"default-limits-12x1MB", Config{}, 12, 1 << 20},
		{"1MiB-budget-16x300KB", Config{MaxMessageSize: 1 << 20, MaxConnMessageBytes: 1 << 20}, 16, 300 << 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			forBothCodecs(t, tc.cfg, func(t *testing.T, addr string) {
				cc := dial(t, addr)
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				defer cancel()
				var wg sync.WaitGroup
				errs := make(chan error, tc.calls)
				for i := range tc.calls {
					wg.Add(1)
					go func() {
						defer wg.Done()
						in := payload(i, tc.len)
						var out []byte
						if err := cc.Invoke(ctx, "/echo.Echo/Echo", &in, &out); err != nil || !bytes.Equal(in, out) {
							errs <- fmt.Errorf("call %d: %d bytes back, %v", i, len(out), err)
						}
					}()
				}
				wg.Wait()
				close(errs)
				for err := range errs {
					t.Error(err)
				}
			})
		})
	}
}

// TestServerMessageMemory: past MaxServerMessageBytes, a call gets
// RESOURCE_EXHAUSTED at once rather than waiting on other connections.
func TestServerMessageMemory(t *testing.T) {
	srv, addr := startServerWith(t, Config{MaxMessageSize: 1 << 20, MaxConnMessageBytes: 1 << 20, MaxServerMessageBytes: 1 << 20})
	// Another connection holds the server's whole budget.
	if !srv.mem.tryAcquire(1<<20, 1<<20) {
		t.Fatal("budget not free at start")
	}
	cc := dial(t, addr)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	in := []byte("hi")
	var out []byte
	if err := cc.Invoke(ctx, "/echo.Echo/Echo", &in, &out); status.Code(err) != codes.ResourceExhausted {
		t.Fatalf("with the server's budget used up: %v, want ResourceExhausted", err)
	}
	srv.mem.release(1 << 20)
	if err := cc.Invoke(ctx, "/echo.Echo/Echo", &in, &out); err != nil || string(out) != "hi" {
		t.Fatalf("with the budget free again: %q, %v", out, err)
	}
}
