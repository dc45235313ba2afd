// Command grpcserver is a gRPC-style HTTP/2 server that embeds metapack's
// HPACK codec: h2c with prior knowledge, a unary echo method with gRPC
// framing, and a plain-text page for curl.
//
// It is its own module, so run it from this directory:
//
//	cd examples/grpcserver && go run . -addr 127.0.0.1:8080
//
// -codec xnet swaps the header codec for golang.org/x/net/http2/hpack, for
// A/B load tests (see loadtest.sh); everything else stays the same.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
)

func main() {
	var cfg Config
	addr := flag.String("addr", "127.0.0.1:8080", "listen address (port 0 picks a free port; the address is printed)")
	flag.StringVar(&cfg.Codec, "codec", codecMetapack, "header codec: metapack or xnet")
	tableSize := flag.Uint("header-table-size", 4096, "SETTINGS_HEADER_TABLE_SIZE to advertise (decoder dynamic table)")
	flag.IntVar(&cfg.MaxHeaderListSize, "max-header-list-size", 64<<10, "SETTINGS_MAX_HEADER_LIST_SIZE (larger requests get 431)")
	flag.IntVar(&cfg.MaxHeaderBlockBytes, "max-header-block-bytes", DefaultMaxHeaderBlockBytes, "wire bytes of one header block before GOAWAY ENHANCE_YOUR_CALM")
	flag.IntVar(&cfg.MaxHeaderBlockFrames, "max-header-block-frames", DefaultMaxHeaderBlockFrames, "HEADERS+CONTINUATION frames of one header block before GOAWAY ENHANCE_YOUR_CALM")
	streams := flag.Uint("max-concurrent-streams", DefaultMaxConcurrentStreams, "SETTINGS_MAX_CONCURRENT_STREAMS")
	flag.IntVar(&cfg.MaxMessageSize, "max-message-size", DefaultMaxMessageSize, "largest request message, 5-byte prefix included")
	window := flag.Uint("initial-window-size", DefaultInitialWindowSize, "SETTINGS_INITIAL_WINDOW_SIZE: unread request bytes per stream before its handler reserves message memory")
	streamWindow := flag.Uint("stream-window-size", DefaultStreamWindowSize, "a stream's window while it receives a message it has reserved memory for")
	connWindow := flag.Uint("conn-window-size", DefaultConnWindowSize, "connection receive window: unread request bytes per connection")
	flag.IntVar(&cfg.MaxConnMessageBytes, "max-conn-message-bytes", DefaultMaxConnMessageBytes, "request message bytes a connection's handlers may hold")
	flag.IntVar(&cfg.MaxServerMessageBytes, "max-server-message-bytes", DefaultMaxServerMessageBytes, "request message bytes the server's handlers may hold")
	flag.DurationVar(&cfg.IdleTimeout, "idle-timeout", DefaultIdleTimeout, "close connections with no stream for this long (negative: never)")
	flag.DurationVar(&cfg.KeepaliveTime, "keepalive-time", DefaultKeepaliveTime, "PING a connection silent for this long (negative: never)")
	flag.DurationVar(&cfg.KeepaliveTimeout, "keepalive-timeout", DefaultKeepaliveTimeout, "close a connection whose keepalive PING gets no answer in this time")
	flag.DurationVar(&cfg.MinPingInterval, "min-ping-interval", DefaultMinPingInterval, "client PINGs closer together are strikes (three: GOAWAY ENHANCE_YOUR_CALM)")
	flag.IntVar(&cfg.MaxResetsPerSecond, "max-resets-per-second", DefaultMaxResetsPerSecond, "client stream resets per second allowed (rapid reset)")
	flag.IntVar(&cfg.ResetBurst, "reset-burst", DefaultResetBurst, "client stream resets allowed in a burst")
	grace := flag.Duration("shutdown-grace", DefaultShutdownGrace, "on SIGTERM/SIGINT: how long streams in flight may take to finish")
	verbose := flag.Bool("v", false, "log connection errors")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile to this file until SIGINT/SIGTERM")
	flag.Parse()
	cfg.HeaderTableSize = uint32(*tableSize)
	cfg.MaxConcurrentStreams = uint32(*streams)
	cfg.InitialWindowSize = uint32(*window)
	cfg.StreamWindowSize = uint32(*streamWindow)
	cfg.ConnWindowSize = uint32(*connWindow)
	if *verbose {
		cfg.Logf = log.Printf
	}

	srv, err := NewServer(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "grpcserver:", err)
		os.Exit(2)
	}
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "grpcserver:", err)
		os.Exit(1)
	}
	fmt.Printf("grpcserver: listening on %s (h2c, codec=%s)\n", l.Addr(), srv.cfg.Codec)

	stopProfile := func() {}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "grpcserver:", err)
			os.Exit(1)
		}
		pprof.StartCPUProfile(f)
		stopProfile = func() { pprof.StopCPUProfile(); f.Close() }
	}

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sig
		stopProfile()
		// Graceful: GOAWAY(NO_ERROR), streams in flight finish within
		// the grace period, then the connections close.
		ctx, cancel := context.WithTimeout(context.Background(), *grace)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			fmt.Fprintln(os.Stderr, "grpcserver: shutdown:", err)
		}
		os.Exit(0)
	}()
	if err := srv.Serve(l); err != nil && err != ErrServerClosed {
		fmt.Fprintln(os.Stderr, "grpcserver:", err)
		os.Exit(1)
	}
	select {} // Shutdown is running: the signal goroutine exits
}
