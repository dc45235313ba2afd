package main

import (
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	mphpack "github.com/metapack/metapack/hpack"
)

// Config configures a Server. Zero fields take the defaults below.
type Config struct {
	// Codec is the header codec: "metapack" (default) or "xnet".
	Codec string
	// HeaderTableSize is the SETTINGS_HEADER_TABLE_SIZE we advertise: the
	// dynamic table size our decoder allows once the client has
	// acknowledged it.
	HeaderTableSize uint32
	// MaxHeaderListSize is the SETTINGS_MAX_HEADER_LIST_SIZE we advertise
	// and enforce; a request over it is reset (RST_STREAM), the
	// connection goes on.
	MaxHeaderListSize int
	// MaxHeaderFields bounds the fields of one header list, likewise.
	MaxHeaderFields int
	// MaxHeaderBlockBytes and MaxHeaderBlockFrames bound one header block
	// on the wire (HEADERS plus CONTINUATION payloads, and the number of
	// frames). Past either the connection is closed with GOAWAY
	// ENHANCE_YOUR_CALM: the defence against endless CONTINUATION
	// (CVE-2023-45288).
	MaxHeaderBlockBytes  int
	MaxHeaderBlockFrames int
	// MaxConcurrentStreams is the SETTINGS_MAX_CONCURRENT_STREAMS we
	// advertise and enforce (REFUSED_STREAM past it).
	MaxConcurrentStreams uint32
	// MaxMessageSize bounds a request body (a gRPC message and its
	// 5-byte prefix).
	MaxMessageSize int
	// InitialWindowSize is our SETTINGS_INITIAL_WINDOW_SIZE, and also the
	// connection's receive window.
	InitialWindowSize uint32
	// IdleTimeout closes a connection with no frame for that long (0: never).
	IdleTimeout time.Duration
	// Logf, when set, logs connection errors.
	Logf func(format string, args ...any)
}

// Defaults of Config.
const (
	DefaultMaxHeaderBlockBytes  = 4 * mphpack.DefaultMaxHeaderListSize
	DefaultMaxHeaderBlockFrames = 64
	DefaultMaxConcurrentStreams = 250
	DefaultMaxMessageSize       = 4 << 20
	DefaultInitialWindowSize    = 1 << 20
)

func (c *Config) withDefaults() (Config, error) {
	d := *c
	if d.Codec == "" {
		d.Codec = codecMetapack
	}
	if d.HeaderTableSize == 0 {
		d.HeaderTableSize = mphpack.DefaultTableSize
	}
	if d.MaxHeaderListSize == 0 {
		d.MaxHeaderListSize = mphpack.DefaultMaxHeaderListSize
	}
	if d.MaxHeaderFields == 0 {
		d.MaxHeaderFields = mphpack.DefaultMaxFields
	}
	if d.MaxHeaderBlockBytes == 0 {
		// Room for any list within the advertised size, Huffman-coded
		// at its worst (4 bytes for some 1-byte symbols).
		d.MaxHeaderBlockBytes = max(DefaultMaxHeaderBlockBytes, 4*d.MaxHeaderListSize)
	}
	if d.MaxHeaderBlockBytes < d.MaxHeaderListSize {
		return d, fmt.Errorf("MaxHeaderBlockBytes %d is below MaxHeaderListSize %d: lists within the advertised size would end the connection", d.MaxHeaderBlockBytes, d.MaxHeaderListSize)
	}
	if d.MaxHeaderBlockFrames == 0 {
		d.MaxHeaderBlockFrames = DefaultMaxHeaderBlockFrames
	}
	if d.MaxConcurrentStreams == 0 {
		d.MaxConcurrentStreams = DefaultMaxConcurrentStreams
	}
	if d.MaxMessageSize == 0 {
		d.MaxMessageSize = DefaultMaxMessageSize
	}
	if d.InitialWindowSize == 0 {
		d.InitialWindowSize = DefaultInitialWindowSize
	}
	return d, nil
}

// Server serves the echo service and the plain-text page over h2c with
// prior knowledge, one goroutine per connection.
type Server struct {
	cfg      Config
	newCodec func() headerCodec

	mu     sync.Mutex
	lis    map[net.Listener]struct{}
	conns  map[net.Conn]struct{}
	closed bool
	wg     sync.WaitGroup
}

// NewServer returns a Server for cfg.
func NewServer(cfg Config) (*Server, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	nc, err := newCodecFunc(c.Codec, codecLimits{c.MaxHeaderListSize, c.MaxHeaderFields, c.MaxHeaderBlockBytes})
	if err != nil {
		return nil, err
	}
	return &Server{cfg: c, newCodec: nc, lis: map[net.Listener]struct{}{}, conns: map[net.Conn]struct{}{}}, nil
}

// ErrServerClosed is returned by Serve after Close.
var ErrServerClosed = errors.New("grpcserver: server closed")

// Serve accepts connections on l until Close.
func (s *Server) Serve(l net.Listener) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		l.Close()
		return ErrServerClosed
	}
	s.lis[l] = struct{}{}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.lis, l)
		s.mu.Unlock()
	}()
	var delay time.Duration
	for {
		nc, err := l.Accept()
		if err != nil {
			s.mu.Lock()
			closed := s.closed
			s.mu.Unlock()
			if closed {
				return ErrServerClosed
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				delay = min(max(2*delay, 5*time.Millisecond), time.Second)
				time.Sleep(delay)
				continue
			}
			return err
		}
		delay = 0
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			nc.Close()
			return ErrServerClosed
		}
		s.conns[nc] = struct{}{}
		s.wg.Add(1)
		s.mu.Unlock()
		go func() {
			defer s.wg.Done()
			s.serveConn(nc)
			s.mu.Lock()
			delete(s.conns, nc)
			s.mu.Unlock()
		}()
	}
}

// Close stops the listeners, closes every connection and waits for their
// goroutines.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	for l := range s.lis {
		l.Close()
	}
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
	return nil
}

func (s *Server) logf(format string, args ...any) {
	if s.cfg.Logf != nil {
		s.cfg.Logf(format, args...)
	}
}
