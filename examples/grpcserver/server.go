package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/metapack/metapack/hpack"
)

// Config configures a Server. Zero fields take the defaults below; the
// README's "Limits" section lists them all.
type Config struct {
	// Codec is the header codec: "metapack" (default) or "xnet".
	Codec string
	// HeaderTableSize is the SETTINGS_HEADER_TABLE_SIZE we advertise: the
	// dynamic table size our decoder allows once the client has
	// acknowledged it (default 4096).
	HeaderTableSize uint32
	// MaxHeaderListSize is the SETTINGS_MAX_HEADER_LIST_SIZE we advertise
	// and enforce (default 64 KiB; the Framer's MaxHeaderListSize): every
	// list within it is served, whatever its strings' lengths; a request
	// over it gets 431 on its stream once its block ends, however many
	// CONTINUATION frames the block takes, and the connection goes on.
	// (The xnet codec is x/net's read path, which ends the connection
	// where a block goes on after its list went over the limit; see
	// xnetCodec.)
	MaxHeaderListSize int
	// MaxHeaderFields bounds the fields of one header list: 431 past it
	// (default 256).
	MaxHeaderFields int
	// MaxHeaderBlockBytes and MaxHeaderBlockFrames bound one header block
	// on the wire (HEADERS plus CONTINUATION payloads, and the number of
	// frames). Past either the connection is closed with GOAWAY
	// ENHANCE_YOUR_CALM: the defence against endless CONTINUATION
	// (CVE-2023-45288). Defaults: 4 x MaxHeaderListSize, and 64 frames.
	// The xnet codec, x/net's read path, has no such bounds.
	MaxHeaderBlockBytes  int
	MaxHeaderBlockFrames int
	// MaxConcurrentStreams is the SETTINGS_MAX_CONCURRENT_STREAMS we
	// advertise and enforce (REFUSED_STREAM past it; default 100).
	MaxConcurrentStreams uint32
	// MaxMessageSize bounds one request message, its 5-byte prefix
	// included (default 4 MiB): RESOURCE_EXHAUSTED past it.
	MaxMessageSize int
	// InitialWindowSize is our SETTINGS_INITIAL_WINDOW_SIZE: how much
	// request DATA a stream may have that its handler has not read, until
	// the handler reserves memory for the message it is receiving
	// (default 16 KiB).
	InitialWindowSize uint32
	// StreamWindowSize is a stream's window while its handler receives a
	// message it has reserved memory for (default 256 KiB; at least
	// InitialWindowSize). See conn_data.go.
	StreamWindowSize uint32
	// ConnWindowSize is the connection's receive window: how much request
	// DATA the connection may hold that handlers have not read (default
	// 1 MiB).
	ConnWindowSize uint32
	// MaxConnMessageBytes bounds the request messages a connection's
	// handlers hold at once (default 4 MiB, one message of the maximum
	// size); MaxServerMessageBytes does so for the whole server (default
	// 256 MiB). See budget.go.
	MaxConnMessageBytes   int
	MaxServerMessageBytes int
	// IdleTimeout closes a connection with no stream for that long with
	// GOAWAY(NO_ERROR) (default 5 minutes; negative: never).
	IdleTimeout time.Duration
	// KeepaliveTime is how long a connection may be silent before we
	// PING it (default 2 hours; negative: never), KeepaliveTimeout how
	// long we wait for an answer before closing it (default 20 s).
	KeepaliveTime    time.Duration
	KeepaliveTimeout time.Duration
	// MinPingInterval is the ping policy: client PINGs closer together
	// than this, with none of our HEADERS or DATA between them, are
	// strikes; the third gets GOAWAY ENHANCE_YOUR_CALM (default 5 s).
	MinPingInterval time.Duration
	// MaxResetsPerSecond and ResetBurst bound how fast a client may reset
	// its own streams before we finish them (defaults 100 per second, in
	// bursts of 200); past that, GOAWAY ENHANCE_YOUR_CALM (rapid reset,
	// CVE-2023-44487).
	MaxResetsPerSecond int
	ResetBurst         int
	// Logf, when set, logs connection errors.
	Logf func(format string, args ...any)
}

// Defaults of Config.
const (
	DefaultMaxHeaderListSize     = 64 << 10 // hpack's default
	DefaultMaxHeaderFields       = 256      // hpack's default
	DefaultMaxHeaderBlockBytes   = 4 * DefaultMaxHeaderListSize
	DefaultMaxHeaderBlockFrames  = 64
	DefaultMaxConcurrentStreams  = 100
	DefaultMaxMessageSize        = 4 << 20
	DefaultInitialWindowSize     = 16 << 10
	DefaultStreamWindowSize      = 256 << 10
	DefaultConnWindowSize        = 1 << 20
	DefaultMaxConnMessageBytes   = DefaultMaxMessageSize
	DefaultMaxServerMessageBytes = 256 << 20
	DefaultIdleTimeout           = 5 * time.Minute
	DefaultKeepaliveTime         = 2 * time.Hour
	DefaultKeepaliveTimeout      = 20 * time.Second
	DefaultMinPingInterval       = 5 * time.Second
	DefaultMaxResetsPerSecond    = 100
	DefaultResetBurst            = 200
	// DefaultShutdownGrace is how long Shutdown lets streams in flight
	// finish (main's -shutdown-grace).
	DefaultShutdownGrace = 10 * time.Second
)

func orDefault[T int | uint32 | time.Duration](v *T, def T) {
	if *v == 0 {
		*v = def
	}
}

func (c *Config) withDefaults() (Config, error) {
	d := *c
	if d.Codec == "" {
		d.Codec = codecMetapack
	}
	orDefault(&d.HeaderTableSize, hpack.DefaultTableSize)
	orDefault(&d.MaxHeaderListSize, DefaultMaxHeaderListSize)
	orDefault(&d.MaxHeaderFields, DefaultMaxHeaderFields)
	// Room for any list within the advertised size, Huffman-coded at its
	// worst (4 bytes for some 1-byte symbols).
	orDefault(&d.MaxHeaderBlockBytes, max(DefaultMaxHeaderBlockBytes, 4*d.MaxHeaderListSize))
	if d.MaxHeaderBlockBytes < d.MaxHeaderListSize {
		return d, fmt.Errorf("MaxHeaderBlockBytes %d is below MaxHeaderListSize %d: lists within the advertised size would end the connection", d.MaxHeaderBlockBytes, d.MaxHeaderListSize)
	}
	orDefault(&d.MaxHeaderBlockFrames, DefaultMaxHeaderBlockFrames)
	orDefault(&d.MaxConcurrentStreams, DefaultMaxConcurrentStreams)
	orDefault(&d.MaxMessageSize, DefaultMaxMessageSize)
	orDefault(&d.InitialWindowSize, DefaultInitialWindowSize)
	orDefault(&d.StreamWindowSize, max(DefaultStreamWindowSize, d.InitialWindowSize))
	d.StreamWindowSize = max(d.StreamWindowSize, d.InitialWindowSize)
	orDefault(&d.ConnWindowSize, DefaultConnWindowSize)
	d.ConnWindowSize = max(d.ConnWindowSize, defaultWindow) // the connection window cannot start lower
	orDefault(&d.MaxConnMessageBytes, max(DefaultMaxConnMessageBytes, d.MaxMessageSize))
	orDefault(&d.MaxServerMessageBytes, max(DefaultMaxServerMessageBytes, d.MaxConnMessageBytes))
	if d.MaxConnMessageBytes < d.MaxMessageSize || d.MaxServerMessageBytes < d.MaxConnMessageBytes {
		return d, fmt.Errorf("want MaxMessageSize %d <= MaxConnMessageBytes %d <= MaxServerMessageBytes %d", d.MaxMessageSize, d.MaxConnMessageBytes, d.MaxServerMessageBytes)
	}
	orDefault(&d.IdleTimeout, DefaultIdleTimeout)
	orDefault(&d.KeepaliveTime, DefaultKeepaliveTime)
	orDefault(&d.KeepaliveTimeout, DefaultKeepaliveTimeout)
	orDefault(&d.MinPingInterval, DefaultMinPingInterval)
	orDefault(&d.MaxResetsPerSecond, DefaultMaxResetsPerSecond)
	orDefault(&d.ResetBurst, DefaultResetBurst)
	return d, nil
}

// Server serves the echo service and the plain-text page over h2c with
// prior knowledge.
type Server struct {
	cfg      Config
	newCodec func() headerCodec
	mem      serverMem
	// activeHandlers counts the handler goroutines running.
	activeHandlers atomic.Int64

	mu       sync.Mutex
	lis      map[net.Listener]struct{}
	conns    map[*conn]struct{}
	closed   bool // no new connections
	draining bool // Shutdown: connections drain
	wg       sync.WaitGroup
}

// NewServer returns a Server for cfg.
func NewServer(cfg Config) (*Server, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	nc, err := newCodecFunc(c.Codec, codecLimits{c.MaxHeaderFields, c.MaxHeaderBlockBytes, c.MaxHeaderBlockFrames})
	if err != nil {
		return nil, err
	}
	return &Server{cfg: c, newCodec: nc, lis: map[net.Listener]struct{}{}, conns: map[*conn]struct{}{}}, nil
}

// ErrServerClosed is returned by Serve after Close or Shutdown.
var ErrServerClosed = errors.New("grpcserver: server closed")

// Serve accepts connections on l until Close or Shutdown.
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
		s.wg.Add(1)
		s.mu.Unlock()
		go func() {
			defer s.wg.Done()
			s.serveConn(nc)
		}()
	}
}

// track registers a new connection; false if the server has closed.
func (s *Server) track(c *conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed && !s.draining {
		return false
	}
	s.conns[c] = struct{}{}
	return true
}

func (s *Server) untrack(c *conn) {
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
}

func (s *Server) isShuttingDown() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.draining
}

// closeListeners stops accepting connections.
func (s *Server) closeListeners() {
	s.closed = true
	for l := range s.lis {
		l.Close()
	}
}

// Close stops the listeners, closes every connection at once and waits
// for their goroutines.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closeListeners()
	for c := range s.conns {
		c.nc.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
	return nil
}

// Shutdown stops the listeners and drains every connection: GOAWAY
// (NO_ERROR) with the last stream ID it will serve (RFC 9113 §6.8), the
// streams in flight finish, and each connection closes after its last
// one. When ctx ends first, the remaining connections are closed at once.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closeListeners()
	s.draining = true
	conns := make([]*conn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	for _, c := range conns {
		c.mu.Lock()
		c.drainLocked()
		c.mu.Unlock()
	}
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		s.Close()
		return ctx.Err()
	}
}

func (s *Server) logf(format string, args ...any) {
	if s.cfg.Logf != nil {
		s.cfg.Logf(format, args...)
	}
}
