package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// rawCodec passes messages through as bytes, so the test needs no
// generated protobuf code. Its name makes the content-type
// application/grpc+raw.
type rawCodec struct{}

func (rawCodec) Name() string { return "raw" }

func (rawCodec) Marshal(v any) ([]byte, error) {
	switch m := v.(type) {
	case *[]byte:
		return *m, nil
	case []byte:
		return m, nil
	}
	return nil, fmt.Errorf("rawCodec: cannot marshal %T", v)
}

func (rawCodec) Unmarshal(data []byte, v any) error {
	m, ok := v.(*[]byte)
	if !ok {
		return fmt.Errorf("rawCodec: cannot unmarshal into %T", v)
	}
	*m = append((*m)[:0], data...)
	return nil
}

// startServer serves cfg on a free loopback port until the test ends.
func startServer(t testing.TB, cfg Config) string {
	t.Helper()
	_, addr := startServerWith(t, cfg)
	return addr
}

// startServerWith is startServer that also returns the Server.
func startServerWith(t testing.TB, cfg Config) (*Server, string) {
	t.Helper()
	srv, err := NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	t.Cleanup(func() {
		srv.Close()
		if err := <-done; err != ErrServerClosed {
			t.Errorf("Serve: %v", err)
		}
	})
	return srv, l.Addr().String()
}

func dial(t testing.TB, addr string) *grpc.ClientConn {
	t.Helper()
	cc, err := grpc.NewClient("passthrough:///"+addr,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.ForceCodec(rawCodec{})))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cc.Close() })
	return cc
}

// payload returns a message of n bytes that depends on seed.
func payload(seed, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(seed*31 + i*7)
	}
	return b
}

// TestGRPCGoClient makes 1,000 unary calls with a real grpc-go client,
// 8 at a time on one connection, with both codecs and a non-default
// header table size, and checks payloads, echoed metadata (a -bin
// header, a 6 KiB value, 100 custom headers) and status.
func TestGRPCGoClient(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"metapack", Config{Codec: codecMetapack}},
		{"metapack-table-1024", Config{Codec: codecMetapack, HeaderTableSize: 1024}},
		{"xnet", Config{Codec: codecXnet}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cc := dial(t, startServer(t, tc.cfg))
			const calls, workers = 1000, 8
			var next atomic.Int64
			var wg sync.WaitGroup
			errs := make(chan error, workers)
			for range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						i := int(next.Add(1)) - 1
						if i >= calls {
							return
						}
						if err := echoCall(cc, i); err != nil {
							errs <- fmt.Errorf("call %d: %w", i, err)
							return
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
		})
	}
}

// echoCall makes call i: sizes vary from empty to 300 KB (past the
// client's stream window, so the server must wait for WINDOW_UPDATE),
// and so does the metadata: a -bin header, a 6 KiB value and 100 custom
// headers on every call, and over 16 KB more on some.
func echoCall(cc *grpc.ClientConn, i int) error {
	size := (i * 37) % 2000
	switch i % 100 {
	case 7:
		size = 0
	case 42:
		size = 300 << 10
	}
	in := payload(i, size)
	md := metadata.Pairs(
		"x-request-id", fmt.Sprintf("req-%06d", i),
		"x-echo-tenant", fmt.Sprintf("tenant-%d", i%5),
		"x-echo-call", fmt.Sprint(i),
		"x-not-echoed", "secret",
		// Binary metadata: grpc-go sends it base64-encoded, and decodes
		// the echo.
		"x-echo-trace-bin", string([]byte{0, 1, 2, 0xfe, 0xff, byte(i), byte(i >> 8)}),
		// A 6 KiB value.
		"x-echo-6k", strings.Repeat(string(rune('a'+i%26)), 6<<10),
	)
	// 100 custom headers, their values changing every tenth call.
	for j := range 100 {
		md.Append(fmt.Sprintf("x-echo-custom-%03d", j), fmt.Sprintf("value-%d-%d", j, i/10))
	}
	if i%250 == 3 {
		// Over 16 KB of echoed metadata: the response headers need
		// CONTINUATION frames.
		for j := range 3 {
			md.Append(fmt.Sprintf("x-echo-big-%d", j), strings.Repeat(string(rune('a'+j)), 8000))
		}
	}
	ctx, cancel := context.WithTimeout(metadata.NewOutgoingContext(context.Background(), md), 20*time.Second)
	defer cancel()
	var out []byte
	var header, trailer metadata.MD
	if err := cc.Invoke(ctx, "/echo.Echo/Echo", &in, &out, grpc.Header(&header), grpc.Trailer(&trailer)); err != nil {
		return err
	}
	if !bytes.Equal(in, out) {
		return fmt.Errorf("echoed %d bytes, want the %d sent", len(out), len(in))
	}
	for k, v := range md {
		got := header.Get(k)
		if k == "x-not-echoed" {
			if len(got) != 0 {
				return fmt.Errorf("header %s echoed: %q", k, got)
			}
			continue
		}
		if len(got) != 1 || got[0] != v[0] {
			return fmt.Errorf("header %s = %.40q, want %.40q", k, got, v)
		}
	}
	if ct := header.Get("content-type"); len(ct) != 1 || ct[0] != "application/grpc" {
		return fmt.Errorf("content-type %q", ct)
	}
	return nil
}

// TestGRPCGoErrors checks the statuses of failing calls.
func TestGRPCGoErrors(t *testing.T) {
	for _, codec := range []string{codecMetapack, codecXnet} {
		t.Run(codec, func(t *testing.T) {
			cc := dial(t, startServer(t, Config{Codec: codec, MaxMessageSize: 1 << 20}))
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			in := []byte("hi")
			var out []byte
			err := cc.Invoke(ctx, "/echo.Echo/Nope", &in, &out)
			if status.Code(err) != codes.Unimplemented || !strings.Contains(status.Convert(err).Message(), "/echo.Echo/Nope") {
				t.Errorf("unknown method: %v, want Unimplemented", err)
			}
			big := make([]byte, 2<<20)
			err = cc.Invoke(ctx, "/echo.Echo/Echo", &big, &out)
			if status.Code(err) != codes.ResourceExhausted {
				t.Errorf("2 MB message: %v, want ResourceExhausted", err)
			}
			// A status the client chose, its message percent-encoded (a
			// malformed '%' sequence is kept as it is), after the echo.
			md := metadata.Pairs(hdrEchoStatus, "9", hdrEchoStatusMessage, "bad%20news: %zz 100% %C3%A9")
			err = cc.Invoke(metadata.NewOutgoingContext(ctx, md), "/echo.Echo/Echo", &in, &out)
			if st := status.Convert(err); st.Code() != codes.FailedPrecondition || st.Message() != "bad news: %zz 100% é" {
				t.Errorf("x-echo-status: %v, want FailedPrecondition %q", err, "bad news: %zz 100% é")
			}
			// The connection is still good.
			if err := cc.Invoke(ctx, "/echo.Echo/Echo", &in, &out); err != nil || string(out) != "hi" {
				t.Errorf("after errors: %q, %v", out, err)
			}
		})
	}
}
