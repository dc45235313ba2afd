// The A/B and interop program of run.sh, copied into a quic-go tree's
// http3 directory (as zz_metapack_ab_test.go) with ab_stock.go or
// ab_patched.go beside it, and run as its test binary:
//
//	AB_ROLE=both    server and client in this process, on loopback UDP
//	AB_ROLE=server  serve AB_N requests on AB_ADDR (print "AB-LISTEN addr" first)
//	AB_ROLE=client  send AB_N requests to AB_ADDR
//	AB_QIFS=dir     where fb-req.qif and fb-resp.qif are
//	AB_N=383        requests measured, after one warm-up request; a last
//	                request, /done, tells the server that their responses arrived
//	AB_TRACE=1      count header bytes through qlog events (off for CPU counts)
//
// Request i carries fb-req's header set i (mod its 383 sets) and its
// response fb-resp's set i: pseudo-headers become the http.Request fields
// and the status that carry them; both are made before the measured
// requests start, so that the program's own allocations are not counted.
// Each side prints what it sent:
//
//	AB: side=client|server requests=N headers=B qpack=Q allocs_per_request=A
//
// where headers is the HEADERS frame payloads and qpack the bytes written
// on our QPACK encoder and decoder streams (stream type bytes included),
// both from qlog; allocs_per_request counts the whole process's
// allocations during the measured requests.
package http3_test

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"
	h3qlog "github.com/quic-go/quic-go/http3/qlog"
	"github.com/quic-go/quic-go/qlog"
	"github.com/quic-go/quic-go/qlogwriter"
	"golang.org/x/net/http/httpguts"
)

type abField struct{ name, value string }

// readQIF returns the header sets of a QIF file: name TAB value lines,
// sets separated by blank lines, # comments.
func readQIF(path string) ([][]abField, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var sets [][]abField
	var cur []abField
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		if line == "" {
			if cur != nil {
				sets = append(sets, cur)
				cur = nil
			}
			continue
		}
		name, value, _ := strings.Cut(line, "\t")
		cur = append(cur, abField{name, value})
	}
	if cur != nil {
		sets = append(sets, cur)
	}
	return sets, sc.Err()
}

// abCounter counts, for one endpoint, the HEADERS payloads and the bytes
// of its locally opened unidirectional streams other than the control
// stream (the QPACK streams), from qlog events.
type abCounter struct {
	isClient bool
	mu       sync.Mutex
	headers  int64
	uni      map[quic.StreamID]int64
	control  quic.StreamID
	base     int64 // QPACK-stream bytes before the measured requests
}

func (c *abCounter) AddProducer() qlogwriter.Recorder { return c }
func (c *abCounter) Close() error                     { return nil }

func (c *abCounter) RecordEvent(ev qlogwriter.Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch e := ev.(type) {
	case h3qlog.FrameCreated:
		switch e.Frame.Frame.(type) {
		case h3qlog.HeadersFrame:
			c.headers += int64(e.Raw.PayloadLength)
		case h3qlog.SettingsFrame:
			c.control = e.StreamID
		}
	case qlog.PacketSent:
		for _, f := range e.Frames {
			sf, ok := f.Frame.(*qlog.StreamFrame)
			if !ok {
				continue
			}
			id := sf.StreamID
			// Unidirectional streams have bit 1 set; the client's are even.
			if id&2 == 0 || (id&1 == 0) != c.isClient {
				continue
			}
			if c.uni == nil {
				c.uni = make(map[quic.StreamID]int64)
			}
			if end := sf.Offset + sf.Length; end > c.uni[id] {
				c.uni[id] = end // retransmissions counted once
			}
		}
	}
}

// sent returns the header and QPACK-stream bytes sent so far.
func (c *abCounter) sent() (headers, qpack int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for id, n := range c.uni {
		if id != c.control {
			qpack += n
		}
	}
	return c.headers, qpack
}

func abTracer(c *abCounter) func(context.Context, bool, quic.ConnectionID) qlogwriter.Trace {
	if c == nil {
		return nil
	}
	return func(context.Context, bool, quic.ConnectionID) qlogwriter.Trace { return c }
}

func abEnv(t *testing.T, name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	if def == "" {
		t.Fatalf("%s is not set", name)
	}
	return def
}

func abTLS(t *testing.T) *tls.Config {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "localhost"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		DNSNames:     []string{"localhost"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
}

// abSkip lists the fields the program does not send: the ones the
// http.Request and http.ResponseWriter APIs carry elsewhere or reject.
var abSkip = map[string]bool{
	"content-length": true, "transfer-encoding": true, "connection": true,
	"keep-alive": true, "proxy-connection": true, "upgrade": true, "host": true, "te": true,
}

func abRequest(addr string, set []abField) (*http.Request, error) {
	req := &http.Request{Method: http.MethodGet, Header: make(http.Header), URL: &url.URL{Scheme: "https", Host: addr, Path: "/"}}
	for _, f := range set {
		switch f.name {
		case ":method":
			req.Method = f.value
		case ":authority":
			req.Host = f.value
		case ":path":
			u, err := url.ParseRequestURI(f.value)
			if err != nil {
				u = &url.URL{Path: "/"}
			}
			req.URL.Path, req.URL.RawPath, req.URL.RawQuery = u.Path, u.RawPath, u.RawQuery
		case ":scheme":
		default:
			if abSkip[f.name] || !httpguts.ValidHeaderFieldName(f.name) || !httpguts.ValidHeaderFieldValue(f.value) {
				continue
			}
			req.Header[f.name] = append(req.Header[f.name], f.value)
		}
	}
	if req.Method == http.MethodConnect || !httpguts.ValidHostHeader(req.Host) {
		req.Method, req.Host = http.MethodGet, ""
	}
	return req, nil
}

// abResponse is a response's status and header, made before the
// measurement so that the handler only copies the header's entries.
type abResponse struct {
	status int
	header http.Header
}

func abMakeResponse(set []abField) abResponse {
	status := http.StatusOK
	h := make(http.Header)
	for _, f := range set {
		if f.name == ":status" {
			if s, err := strconv.Atoi(f.value); err == nil && s >= 200 && s <= 999 {
				status = s
			}
			continue
		}
		if strings.HasPrefix(f.name, ":") || abSkip[f.name] || !httpguts.ValidHeaderFieldName(f.name) || !httpguts.ValidHeaderFieldValue(f.value) {
			continue
		}
		h[f.name] = append(h[f.name], f.value)
	}
	return abResponse{status, h}
}

func (r abResponse) write(w http.ResponseWriter) {
	h := w.Header()
	for k, v := range r.header {
		h[k] = v
	}
	w.WriteHeader(r.status)
}

func abMallocs() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.Mallocs
}

func TestMetapackAB(t *testing.T) {
	role := os.Getenv("AB_ROLE")
	if role == "" {
		t.Skip("AB_ROLE is not set: this is run.sh's A/B program")
	}
	dir := abEnv(t, "AB_QIFS", "")
	reqs, err := readQIF(filepath.Join(dir, "fb-req.qif"))
	if err != nil {
		t.Fatal(err)
	}
	respSets, err := readQIF(filepath.Join(dir, "fb-resp.qif"))
	if err != nil {
		t.Fatal(err)
	}
	resps := make([]abResponse, len(respSets))
	for i, set := range respSets {
		resps[i] = abMakeResponse(set)
	}
	n, err := strconv.Atoi(abEnv(t, "AB_N", "383"))
	if err != nil || n <= 0 {
		t.Fatalf("AB_N: %v", err)
	}
	trace := os.Getenv("AB_TRACE") == "1"
	var clientCount, serverCount *abCounter
	if trace {
		clientCount, serverCount = &abCounter{isClient: true}, &abCounter{}
	}

	var served atomic.Int64
	var serverDone chan struct{}
	// The server's counts when the client's /done request came: every
	// measured response had arrived by then, so its HEADERS frame was
	// made. (Counting when the last handler ran missed that response's
	// frame, made after the handler returns, when the machine was busy.)
	var serverHeaders, serverQPACK int64
	addr := os.Getenv("AB_ADDR")
	if role == "both" || role == "server" {
		if addr == "" {
			addr = "127.0.0.1:0"
		}
		udp, err := net.ListenPacket("udp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer udp.Close()
		addr = udp.LocalAddr().String()
		serverDone = make(chan struct{})
		srv := &http3.Server{
			TLSConfig:  http3.ConfigureTLSConfig(abTLS(t)),
			QUICConfig: &quic.Config{Tracer: abTracer(serverCount)},
			Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch r.URL.Path {
				case "/warmup":
					w.WriteHeader(http.StatusNoContent)
					return
				case "/done":
					serverHeaders, serverQPACK = serverCount.measured()
					close(serverDone)
					w.WriteHeader(http.StatusNoContent)
					return
				}
				i := served.Add(1) - 1
				resps[int(i)%len(resps)].write(w)
			}),
		}
		configureQPACK(srv, nil)
		go srv.Serve(udp)
		defer srv.Close()
		fmt.Printf("AB-LISTEN %s\n", addr)
	}
	if role == "server" {
		// The client's warm-up request ends before its measured ones start.
		select {
		case <-serverDone:
		case <-time.After(10 * time.Minute):
			t.Fatal("server: timed out waiting for the client's requests")
		}
		reportAB("server", serverHeaders, serverQPACK, n, 0)
		time.Sleep(200 * time.Millisecond) // let /done's response go out
		return
	}

	tr := &http3.Transport{
		TLSClientConfig:    &tls.Config{InsecureSkipVerify: true, NextProtos: []string{http3.NextProtoH3}},
		QUICConfig:         &quic.Config{Tracer: abTracer(clientCount)},
		DisableCompression: true,
	}
	configureQPACK(nil, tr)
	defer tr.Close()
	client := &http.Client{Transport: tr}
	do := func(req *http.Request) {
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", req.Method, req.URL, err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	warm, _ := http.NewRequest(http.MethodGet, "https://"+addr+"/warmup", nil)
	do(warm)
	var c0, s0 [2]int64
	if trace {
		c0[0], c0[1] = clientCount.sent()
		if serverCount != nil {
			s0[0], s0[1] = serverCount.sent()
		}
		serverCount.reset(s0)
		clientCount.reset(c0)
	}
	todo := make([]*http.Request, n)
	for i := range todo {
		if todo[i], err = abRequest(addr, reqs[i%len(reqs)]); err != nil {
			t.Fatal(err)
		}
	}
	m0 := abMallocs()
	for _, req := range todo {
		do(req)
	}
	allocs := float64(abMallocs()-m0) / float64(n)
	headers, qpack := clientCount.measured()
	reportAB("client", headers, qpack, n, allocs)
	done, _ := http.NewRequest(http.MethodGet, "https://"+addr+"/done", nil)
	do(done)
	if role == "both" {
		<-serverDone
		reportAB("server", serverHeaders, serverQPACK, n, allocs)
	}
}

// reset subtracts what was sent before the measured requests.
func (c *abCounter) reset(before [2]int64) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.headers -= before[0]
	c.base = before[1]
}

// measured returns what was sent since reset: HEADERS payload bytes and
// QPACK-stream bytes, or -1 for each without a counter.
func (c *abCounter) measured() (headers, qpack int64) {
	if c == nil {
		return -1, -1
	}
	headers, qpack = c.sent()
	c.mu.Lock()
	defer c.mu.Unlock()
	return headers, qpack - c.base
}

func reportAB(side string, headers, qpack int64, n int, allocs float64) {
	fmt.Printf("AB: side=%s requests=%d headers=%d qpack=%d allocs_per_request=%.2f\n", side, n, headers, qpack, allocs)
}
