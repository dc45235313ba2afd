package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/http2"
	xhpack "golang.org/x/net/http2/hpack"
)

// rawClient speaks HTTP/2 frame by frame, to test what grpc-go never
// sends.
type rawClient struct {
	t   *testing.T
	nc  net.Conn
	fr  *http2.Framer
	enc *xhpack.Encoder
	buf bytes.Buffer
	dec *xhpack.Decoder
}

func newRawClient(t *testing.T, addr string, settings ...http2.Setting) *rawClient {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	nc.SetDeadline(time.Now().Add(20 * time.Second))
	c := &rawClient{t: t, nc: nc}
	c.fr = http2.NewFramer(nc, nc)
	c.enc = xhpack.NewEncoder(&c.buf)
	c.dec = xhpack.NewDecoder(4096, nil)
	if _, err := io.WriteString(nc, http2.ClientPreface); err != nil {
		t.Fatal(err)
	}
	if err := c.fr.WriteSettings(settings...); err != nil {
		t.Fatal(err)
	}
	return c
}

// handshake reads the server's SETTINGS and acknowledges them.
func (c *rawClient) handshake() *http2.SettingsFrame {
	c.t.Helper()
	f := c.read()
	sf, ok := f.(*http2.SettingsFrame)
	if !ok || sf.IsAck() {
		c.t.Fatalf("first frame %v, want SETTINGS", f)
	}
	if err := c.fr.WriteSettingsAck(); err != nil {
		c.t.Fatal(err)
	}
	return sf
}

func (c *rawClient) read() http2.Frame {
	c.t.Helper()
	f, err := c.fr.ReadFrame()
	if err != nil {
		c.t.Fatalf("ReadFrame: %v", err)
	}
	return f
}

// block encodes fields with the client's x/net encoder.
func (c *rawClient) block(kv ...string) []byte {
	c.buf.Reset()
	for i := 0; i < len(kv); i += 2 {
		c.enc.WriteField(xhpack.HeaderField{Name: kv[i], Value: kv[i+1]})
	}
	return append([]byte(nil), c.buf.Bytes()...)
}

func grpcRequest(extra ...string) []string {
	return append([]string{":method", "POST", ":scheme", "http", ":path", "/echo.Echo/Echo", ":authority", "test",
		"content-type", "application/grpc", "te", "trailers"}, extra...)
}

func frameMessage(msg []byte) []byte {
	b := make([]byte, 5+len(msg))
	binary.BigEndian.PutUint32(b[1:], uint32(len(msg)))
	copy(b[5:], msg)
	return b
}

// response collects one stream's response.
type response struct {
	headers, trailers []xhpack.HeaderField
	data              []byte
	rst               *http2.ErrCode
}

func (r *response) get(name string) string {
	for _, f := range append(r.headers, r.trailers...) {
		if f.Name == name {
			return f.Value
		}
	}
	return ""
}

// readResponse reads frames until stream id ends, answering flow control
// with window updates when update is set; frames of other streams fail,
// except RST_STREAM(NO_ERROR).
func (c *rawClient) readResponse(id uint32, update bool) *response {
	c.t.Helper()
	r := &response{}
	var block []byte
	var endStream bool
	for {
		f := c.read()
		switch f := f.(type) {
		case *http2.SettingsFrame, *http2.WindowUpdateFrame, *http2.PingFrame:
			continue
		case *http2.GoAwayFrame:
			c.t.Fatalf("GOAWAY %v %q", f.ErrCode, f.DebugData())
		}
		if rst, ok := f.(*http2.RSTStreamFrame); ok && rst.StreamID != id && rst.ErrCode == http2.ErrCodeNo {
			continue // the end of an earlier stream whose request we did not finish sending
		}
		if f.Header().StreamID != id {
			c.t.Fatalf("frame %v for another stream", f)
		}
		switch f := f.(type) {
		case *http2.HeadersFrame:
			block = append(block[:0], f.HeaderBlockFragment()...)
			endStream = f.StreamEnded()
			if !f.HeadersEnded() {
				continue
			}
		case *http2.ContinuationFrame:
			block = append(block, f.HeaderBlockFragment()...)
			if !f.HeadersEnded() {
				continue
			}
		case *http2.DataFrame:
			r.data = append(r.data, f.Data()...)
			if update && len(f.Data()) > 0 && !f.StreamEnded() {
				c.fr.WriteWindowUpdate(0, uint32(len(f.Data())))
				c.fr.WriteWindowUpdate(id, uint32(len(f.Data())))
			}
			if f.StreamEnded() {
				return r
			}
			continue
		case *http2.RSTStreamFrame:
			code := f.ErrCode
			r.rst = &code
			return r
		default:
			c.t.Fatalf("unexpected frame %v", f)
		}
		fields, err := c.dec.DecodeFull(block)
		if err != nil {
			c.t.Fatalf("decoding a response block: %v", err)
		}
		if r.headers == nil {
			r.headers = fields
		} else {
			r.trailers = fields
		}
		if endStream {
			return r
		}
	}
}

// expectGoAway reads until GOAWAY and then the connection's end.
func (c *rawClient) expectGoAway(code http2.ErrCode) {
	c.t.Helper()
	for {
		f, err := c.fr.ReadFrame()
		if err != nil {
			c.t.Fatalf("connection ended without GOAWAY: %v", err)
		}
		if ga, ok := f.(*http2.GoAwayFrame); ok {
			if ga.ErrCode != code {
				c.t.Fatalf("GOAWAY %v (%q), want %v", ga.ErrCode, ga.DebugData(), code)
			}
			c.t.Logf("GOAWAY %v (%q)", ga.ErrCode, ga.DebugData())
			break
		}
	}
	for {
		if _, err := c.fr.ReadFrame(); err != nil {
			return // closed
		}
	}
}

// forBothCodecs runs f, as a subtest named after the codec, against a
// server with cfg and each codec.
func forBothCodecs(t *testing.T, cfg Config, f func(t *testing.T, addr string)) {
	forEachCodec(t, cfg, func(t *testing.T, _, addr string) { f(t, addr) })
}

// forEachCodec is forBothCodecs for tests that tell the codecs apart:
// where x/net's read path (xnetCodec) differs from headerblock's
// (metapackCodec), the xnet subtest names the difference, as the
// headerblock package documentation does.
func forEachCodec(t *testing.T, cfg Config, f func(t *testing.T, codec, addr string)) {
	for _, codec := range []string{codecMetapack, codecXnet} {
		t.Run(codec, func(t *testing.T) {
			cfg := cfg
			cfg.Codec = codec
			f(t, codec, startServer(t, cfg))
		})
	}
}

// TestContinuationFlood: a header block that never ends, in tiny or in
// full frames, gets GOAWAY ENHANCE_YOUR_CALM within the budget.
//
// x/net's read path (the xnet codec) has no such budget (the BlockBound
// difference): a flood of empty CONTINUATION frames goes on as long as
// the client sends it, so that case is skipped; a flood that carries
// fields ends once the list is over the limit, with PROTOCOL_ERROR, as
// x/net ends the connection when a block goes on after that (the
// difference SetStreamErrors turns off in headerblock).
func TestContinuationFlood(t *testing.T) {
	forEachCodec(t, Config{}, func(t *testing.T, codec, addr string) {
		for _, size := range []int{0, 1, 16384} {
			t.Run(fmt.Sprintf("frames-of-%d-bytes", size), func(t *testing.T) {
				want := http2.ErrCodeEnhanceYourCalm
				if codec == codecXnet {
					if size == 0 {
						t.Skip("BlockBound: x/net does not bound a flood of empty CONTINUATION frames")
					}
					want = http2.ErrCodeProtocol // SetStreamErrors: x/net ends the connection
				}
				c := newRawClient(t, addr)
				c.handshake()
				first := c.block(grpcRequest()...)
				if err := c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: first}); err != nil {
					t.Fatal(err)
				}
				// A stream of literal fields, cut into frames of size
				// bytes (0: empty frames).
				lit := c.block("x-flood", strings.Repeat("z", 100))
				stream := bytes.Repeat(lit, 16384/len(lit)+2)
				go func() {
					off := 0
					for range 100000 {
						if c.fr.WriteContinuation(1, false, stream[off:off+size]) != nil {
							return
						}
						if off += size; off >= len(lit) {
							off %= len(lit)
						}
					}
				}()
				c.expectGoAway(want)
			})
		}
	})
}

// TestHeaderListLimit: a request over the header list limit is refused
// with a 431 response, and the connection stays usable with the HPACK state
// in sync: the next request refers to the entries the reset one added.
func TestHeaderListLimit(t *testing.T) {
	forBothCodecs(t, Config{MaxHeaderListSize: 2048}, func(t *testing.T, addr string) {
		c := newRawClient(t, addr)
		c.handshake()
		big := c.block(grpcRequest("x-echo-a", strings.Repeat("a", 1000), "x-echo-b", strings.Repeat("b", 1500))...)
		c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: big, EndHeaders: true})
		r := c.readResponse(1, false)
		if r.rst != nil || r.get(":status") != "431" {
			t.Fatalf("over the limit: %+v, want a 431 response", r)
		}
		// The encoder indexed x-echo-a: this block refers to it by index.
		ok := c.block(grpcRequest("x-echo-a", strings.Repeat("a", 1000))...)
		c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 3, BlockFragment: ok, EndHeaders: true})
		c.fr.WriteData(3, true, frameMessage([]byte("ping")))
		r = c.readResponse(3, false)
		if r.rst != nil || r.get("grpc-status") != "0" || r.get("x-echo-a") != strings.Repeat("a", 1000) {
			t.Fatalf("next request: %+v", r)
		}
		if !bytes.Equal(r.data, frameMessage([]byte("ping"))) {
			t.Fatalf("echo %q", r.data)
		}
	})
}

// TestCompressionError: an invalid header block is a connection error of
// type COMPRESSION_ERROR.
func TestCompressionError(t *testing.T) {
	forBothCodecs(t, Config{}, func(t *testing.T, addr string) {
		c := newRawClient(t, addr)
		c.handshake()
		bad := []byte{0xff, 0x80, 0x80, 0x80, 0x08} // index far past the tables
		c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: bad, EndHeaders: true, EndStream: true})
		c.expectGoAway(http2.ErrCodeCompression)
	})
}

// TestHeaderTableSizeAck: the SETTINGS_HEADER_TABLE_SIZE we advertise
// applies once acknowledged; the first block after a lower one must start
// with a size update (RFC 7541 §4.2), which metapack's Decoder enforces.
func TestHeaderTableSizeAck(t *testing.T) {
	addr := startServer(t, Config{HeaderTableSize: 256})
	c := newRawClient(t, addr)
	sf := c.handshake()
	if v, ok := sf.Value(http2.SettingHeaderTableSize); !ok || v != 256 {
		t.Fatalf("SETTINGS_HEADER_TABLE_SIZE %d, %v; want 256", v, ok)
	}
	c.enc.SetMaxDynamicTableSize(256)
	get := c.block(":method", "GET", ":scheme", "http", ":path", "/hello", ":authority", "test")
	if get[0]&0xe0 != 0x20 {
		t.Fatalf("block does not start with a size update: % x", get[:4])
	}
	c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: get, EndHeaders: true, EndStream: true})
	if r := c.readResponse(1, false); r.get(":status") != "200" || !strings.HasPrefix(string(r.data), "Hello") {
		t.Fatalf("GET /hello: %+v", r)
	}

	// Without the update the block is a COMPRESSION_ERROR.
	c = newRawClient(t, addr)
	c.handshake()
	c.enc.SetMaxDynamicTableSizeLimit(4096)
	get = c.block(":method", "GET", ":scheme", "http", ":path", "/hello")
	c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: get, EndHeaders: true, EndStream: true})
	c.expectGoAway(http2.ErrCodeCompression)
}

// TestFlowControl: with a tiny initial window the response DATA comes in
// window-sized pieces as the client grants more, and the trailers follow.
func TestFlowControl(t *testing.T) {
	forBothCodecs(t, Config{}, func(t *testing.T, addr string) {
		c := newRawClient(t, addr, http2.Setting{ID: http2.SettingInitialWindowSize, Val: 7})
		c.handshake()
		msg := frameMessage([]byte(strings.Repeat("0123456789", 10)))
		c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: c.block(grpcRequest("x-request-id", "r1")...), EndHeaders: true})
		c.fr.WriteData(1, true, msg)
		var r *response
		pieces := 0
		// Count DATA frames: none may exceed 7 bytes.
		for r == nil {
			f := c.read()
			switch f := f.(type) {
			case *http2.DataFrame:
				if len(f.Data()) > 7 {
					t.Fatalf("DATA of %d bytes with a window of 7", len(f.Data()))
				}
				pieces++
				c.fr.WriteWindowUpdate(1, uint32(len(f.Data())))
			case *http2.HeadersFrame:
				if f.StreamEnded() {
					fields, err := c.dec.DecodeFull(f.HeaderBlockFragment())
					if err != nil {
						t.Fatal(err)
					}
					r = &response{trailers: fields}
				} else if _, err := c.dec.DecodeFull(f.HeaderBlockFragment()); err != nil {
					t.Fatal(err)
				}
			}
		}
		if want := (len(msg) + 6) / 7; pieces != want {
			t.Errorf("%d DATA frames, want %d", pieces, want)
		}
		if r.get("grpc-status") != "0" {
			t.Errorf("trailers %v", r.trailers)
		}
	})
}

// TestPingAndText: PING is acknowledged with its payload; GET / and HEAD
// get the text page; an unknown path 404.
func TestPingAndText(t *testing.T) {
	forBothCodecs(t, Config{}, func(t *testing.T, addr string) {
		c := newRawClient(t, addr)
		c.handshake()
		c.fr.WritePing(false, [8]byte{1, 2, 3, 4, 5, 6, 7, 8})
		for {
			if p, ok := c.read().(*http2.PingFrame); ok {
				if !p.IsAck() || p.Data != [8]byte{1, 2, 3, 4, 5, 6, 7, 8} {
					t.Fatalf("PING reply %v", p)
				}
				break
			}
		}
		for i, tc := range []struct {
			method, path, status string
			body                 bool
		}{
			{"GET", "/", "200", true},
			{"HEAD", "/hello", "200", false},
			{"GET", "/missing", "404", true},
		} {
			id := uint32(2*i + 1)
			c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, EndHeaders: true, EndStream: true,
				BlockFragment: c.block(":method", tc.method, ":scheme", "http", ":path", tc.path, ":authority", "x")})
			r := c.readResponse(id, false)
			if r.get(":status") != tc.status || (len(r.data) > 0) != tc.body {
				t.Errorf("%s %s: %+v", tc.method, tc.path, r)
			}
		}
	})
}

// TestGRPCErrorsRaw: statuses for malformed calls.
func TestGRPCErrorsRaw(t *testing.T) {
	forBothCodecs(t, Config{}, func(t *testing.T, addr string) {
		c := newRawClient(t, addr)
		c.handshake()
		for i, tc := range []struct {
			extra  []string
			body   []byte
			status string
		}{
			{nil, frameMessage([]byte("ok")), "0"},
			{[]string{"grpc-timeout", "bogus"}, frameMessage(nil), "13"},
			{[]string{"grpc-timeout", "0m"}, frameMessage(nil), "4"},
			{nil, []byte{0, 0, 0}, "13"},
			{nil, append(frameMessage([]byte("a")), frameMessage([]byte("b"))...), "12"},
			{[]string{"grpc-encoding", "gzip"}, append([]byte{1}, frameMessage([]byte("z"))[1:]...), "12"},
		} {
			id := uint32(2*i + 1)
			c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, EndHeaders: true, BlockFragment: c.block(grpcRequest(tc.extra...)...)})
			c.fr.WriteData(id, true, tc.body)
			r := c.readResponse(id, false)
			if got := r.get("grpc-status"); got != tc.status {
				t.Errorf("case %d: grpc-status %q (%q), want %s", i, got, r.get("grpc-message"), tc.status)
			}
		}
	})
}
