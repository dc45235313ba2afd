package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/net/http2"
)

// TestMain lets the test binary run the server's main, for tests that
// signal a server process: GRPCSERVER_RUN_MAIN=1 with the flags in
// GRPCSERVER_ARGS.
func TestMain(m *testing.M) {
	if os.Getenv("GRPCSERVER_RUN_MAIN") == "1" {
		os.Args = append([]string{"grpcserver"}, strings.Fields(os.Getenv("GRPCSERVER_ARGS"))...)
		main()
		return
	}
	os.Exit(m.Run())
}

// startServerProcess runs main in a child process and returns it and the
// address it listens on.
func startServerProcess(t *testing.T, args ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GRPCSERVER_RUN_MAIN=1", "GRPCSERVER_ARGS="+strings.Join(append([]string{"-addr", "127.0.0.1:0"}, args...), " "))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("server output: %q, %v", line, err)
	}
	m := regexp.MustCompile(`listening on (\S+)`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("server output: %q", line)
	}
	return cmd, m[1]
}

// TestSIGTERMDrains: SIGTERM sends GOAWAY(NO_ERROR) with the last stream
// ID, lets the request in flight complete, refuses new connections, and
// exits 0 once the connection has closed.
func TestSIGTERMDrains(t *testing.T) {
	cmd, addr := startServerProcess(t, "-shutdown-grace", "20s")
	c := newRawClient(t, addr)
	c.handshake()
	c.writeBlock(1, c.block(grpcRequest()...), false)
	c.fr.WriteData(1, false, []byte{0, 0, 0, 0, 5})
	// A PING round trip: the server has seen stream 1.
	c.fr.WritePing(false, [8]byte{1})
	for {
		if p, ok := c.read().(*http2.PingFrame); ok && p.IsAck() {
			break
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	var ga *http2.GoAwayFrame
	for ga == nil {
		f, err := c.fr.ReadFrame()
		if err != nil {
			t.Fatalf("connection ended without GOAWAY: %v", err)
		}
		ga, _ = f.(*http2.GoAwayFrame)
	}
	if ga.ErrCode != http2.ErrCodeNo || ga.LastStreamID != 1 {
		t.Fatalf("GOAWAY %v, last stream %d; want NO_ERROR, 1", ga.ErrCode, ga.LastStreamID)
	}
	time.Sleep(100 * time.Millisecond) // the request is still in flight
	c.fr.WriteData(1, true, []byte("hello"))
	r := c.readResponse(1, false)
	if r.get("grpc-status") != "0" || !bytes.Equal(r.data, frameMessage([]byte("hello"))) {
		t.Fatalf("the request in flight: %+v", r)
	}
	for { // then the connection closes
		if _, err := c.fr.ReadFrame(); err != nil {
			break
		}
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("server exit: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not exit")
	}
}
