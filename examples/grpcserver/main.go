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
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
	"time"
)

func main() {
	var cfg Config
	addr := flag.String("addr", "127.0.0.1:8080", "listen address (port 0 picks a free port; the address is printed)")
	flag.StringVar(&cfg.Codec, "codec", codecMetapack, "header codec: metapack or xnet")
	tableSize := flag.Uint("header-table-size", 4096, "SETTINGS_HEADER_TABLE_SIZE to advertise (decoder dynamic table)")
	flag.IntVar(&cfg.MaxHeaderListSize, "max-header-list-size", 64<<10, "SETTINGS_MAX_HEADER_LIST_SIZE (larger requests get RST_STREAM)")
	flag.IntVar(&cfg.MaxHeaderBlockBytes, "max-header-block-bytes", DefaultMaxHeaderBlockBytes, "wire bytes of one header block before GOAWAY ENHANCE_YOUR_CALM")
	flag.IntVar(&cfg.MaxHeaderBlockFrames, "max-header-block-frames", DefaultMaxHeaderBlockFrames, "HEADERS+CONTINUATION frames of one header block before GOAWAY ENHANCE_YOUR_CALM")
	streams := flag.Uint("max-concurrent-streams", DefaultMaxConcurrentStreams, "SETTINGS_MAX_CONCURRENT_STREAMS")
	flag.DurationVar(&cfg.IdleTimeout, "idle-timeout", 0, "close connections idle this long (0: never)")
	verbose := flag.Bool("v", false, "log connection errors")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile to this file until SIGINT/SIGTERM")
	flag.Parse()
	cfg.HeaderTableSize = uint32(*tableSize)
	cfg.MaxConcurrentStreams = uint32(*streams)
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
		done := make(chan struct{})
		go func() { srv.Close(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
		}
		os.Exit(0)
	}()
	if err := srv.Serve(l); err != nil && err != ErrServerClosed {
		fmt.Fprintln(os.Stderr, "grpcserver:", err)
		os.Exit(1)
	}
	select {} // Close is running: the signal goroutine exits
}
