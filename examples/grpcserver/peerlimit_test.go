package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// TestPeerMaxHeaderListSize: a grpc-go client that advertises
// SETTINGS_MAX_HEADER_LIST_SIZE 4096 asks for a 5,000-byte header to be
// echoed. The server must not send a header list over the client's
// limit: the call gets a trailers-only error from the server
// (RESOURCE_EXHAUSTED, with the server's message), and calls within the
// limit go on working on the same connection.
func TestPeerMaxHeaderListSize(t *testing.T) {
	forBothCodecs(t, Config{}, func(t *testing.T, addr string) {
		cc, err := grpc.NewClient("passthrough:///"+addr,
			grpc.WithTransportCredentials(insecure.NewCredentials()),
			grpc.WithDefaultCallOptions(grpc.ForceCodec(rawCodec{})),
			grpc.WithMaxHeaderListSize(4096))
		if err != nil {
			t.Fatal(err)
		}
		defer cc.Close()
		for i, tc := range []struct {
			value string
			code  codes.Code
		}{
			{"small", codes.OK},
			{strings.Repeat("e", 5000), codes.ResourceExhausted},
			{strings.Repeat("e", 3990), codes.ResourceExhausted}, // the field fits, the list with :status and content-type does not
			{strings.Repeat("e", 3500), codes.OK},
			{"small again", codes.OK},
		} {
			ctx, cancel := context.WithTimeout(metadata.AppendToOutgoingContext(context.Background(), "x-echo-v", tc.value), 20*time.Second)
			in := []byte("hi")
			var out []byte
			var hdr metadata.MD
			err := cc.Invoke(ctx, "/echo.Echo/Echo", &in, &out, grpc.Header(&hdr))
			cancel()
			if got := status.Code(err); got != tc.code {
				t.Fatalf("call %d (%d-byte value): %v, want %v", i, len(tc.value), err, tc.code)
			}
			if tc.code == codes.OK && (string(out) != "hi" || len(hdr.Get("x-echo-v")) != 1 || hdr.Get("x-echo-v")[0] != tc.value) {
				t.Fatalf("call %d: %q, header %q", i, out, hdr.Get("x-echo-v"))
			}
			if tc.code != codes.OK && !strings.Contains(status.Convert(err).Message(), "SETTINGS_MAX_HEADER_LIST_SIZE") {
				t.Fatalf("call %d: %v, want the server's message", i, err)
			}
		}
	})
}
