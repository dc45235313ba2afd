package main

import (
	"encoding/binary"
	"os"
	"runtime"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/http2"
)

// bodyFlood is a client that opens streams with large request bodies,
// sends DATA exactly as far as the server's windows allow, and does not
// read the responses (its INITIAL_WINDOW_SIZE is 0).
type bodyFlood struct {
	c *rawClient

	mu       sync.Mutex
	grant    *sync.Cond
	conn     int64            // connection send window
	windows  map[uint32]int64 // stream send windows
	ended    map[uint32]bool  // streams the server ended or reset
	statuses map[uint32]string
	data     map[uint32]int
	err      error
}

func newBodyFlood(t *testing.T, addr string) *bodyFlood {
	c := newRawClient(t, addr, http2.Setting{ID: http2.SettingInitialWindowSize, Val: 0})
	sf := c.handshake()
	init, _ := sf.Value(http2.SettingInitialWindowSize)
	if _, ok := sf.Value(http2.SettingInitialWindowSize); !ok {
		init = 65535
	}
	b := &bodyFlood{c: c, conn: 65535, windows: map[uint32]int64{}, ended: map[uint32]bool{},
		statuses: map[uint32]string{}, data: map[uint32]int{}}
	b.grant = sync.NewCond(&b.mu)
	b.windows[0] = int64(init) // the initial stream window, for streams to come
	c.nc.SetDeadline(time.Time{})
	go b.readLoop()
	return b
}

func (b *bodyFlood) readLoop() {
	var block []byte
	for {
		f, err := b.c.fr.ReadFrame()
		b.mu.Lock()
		if err != nil {
			b.err = err
			b.grant.Broadcast()
			b.mu.Unlock()
			return
		}
		id := f.Header().StreamID
		switch f := f.(type) {
		case *http2.WindowUpdateFrame:
			if id == 0 {
				b.conn += int64(f.Increment)
			} else {
				b.windows[id] += int64(f.Increment)
			}
		case *http2.RSTStreamFrame:
			b.ended[id] = true
		case *http2.DataFrame:
			b.data[id] += len(f.Data())
		case *http2.HeadersFrame, *http2.ContinuationFrame:
			if h, ok := f.(*http2.HeadersFrame); ok {
				block = append(block[:0], h.HeaderBlockFragment()...)
			} else {
				block = append(block, f.(*http2.ContinuationFrame).HeaderBlockFragment()...)
			}
			if f.Header().Flags.Has(http2.FlagHeadersEndHeaders) {
				fields, err := b.c.dec.DecodeFull(block)
				if err != nil {
					b.err = err
				}
				for _, hf := range fields {
					if hf.Name == "grpc-status" {
						b.statuses[id] = hf.Value
						b.ended[id] = true
					}
				}
			}
		}
		b.grant.Broadcast()
		b.mu.Unlock()
	}
}

// send sends n bodies of size bytes on streams 1, 3, ..., as the windows
// allow, and returns when all are sent or ended, or nothing has moved for
// stall.
func (b *bodyFlood) send(t *testing.T, n, size int, stall time.Duration) {
	msg := make([]byte, size)
	binary.BigEndian.PutUint32(msg[1:5], uint32(size-5))
	frame := 16384
	sent := map[uint32]int{}
	for i := range n {
		id := uint32(2*i + 1)
		b.mu.Lock()
		b.windows[id] += b.windows[0]
		b.mu.Unlock()
		b.c.writeBlock(id, b.c.block(grpcRequest()...), false)
	}
	last := time.Now()
	for {
		b.mu.Lock()
		progress, open := false, false
		for i := range n {
			id := uint32(2*i + 1)
			if b.ended[id] || sent[id] == size {
				continue
			}
			open = true
			k := min(int64(frame), int64(size-sent[id]), b.conn, b.windows[id])
			if k <= 0 {
				continue
			}
			b.conn -= k
			b.windows[id] -= k
			end := sent[id]+int(k) == size
			if err := b.c.fr.WriteData(id, end, msg[sent[id]:sent[id]+int(k)]); err != nil {
				b.mu.Unlock()
				t.Fatalf("DATA: %v", err)
			}
			sent[id] += int(k)
			progress = true
		}
		if b.err != nil {
			b.mu.Unlock()
			t.Fatalf("connection: %v", b.err)
		}
		if !open {
			b.mu.Unlock()
			return
		}
		if progress {
			last = time.Now()
			b.mu.Unlock()
			continue
		}
		if time.Since(last) > stall {
			b.mu.Unlock()
			return
		}
		// Wait for a grant, or poll again soon.
		timer := time.AfterFunc(50*time.Millisecond, func() { b.mu.Lock(); b.grant.Broadcast(); b.mu.Unlock() })
		b.grant.Wait()
		timer.Stop()
		b.mu.Unlock()
	}
}

// heapInUse returns the live heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestRequestBodiesBounded: a client with INITIAL_WINDOW_SIZE 0 (it never
// reads a response) sends 40 bodies of 4 MiB on one connection. The
// server must hold no more than a few MiB for it: windows are given back
// only when handlers consume the data, and message memory is bounded per
// connection. The call that holds that memory completes once the client
// reads; the others get RESOURCE_EXHAUSTED.
//
// With GRPCSERVER_BODY_FLOOD_ADDR set it floods that server instead and
// checks nothing: the README's RSS measurement uses it.
func TestRequestBodiesBounded(t *testing.T) {
	const bodies, size = 40, 4<<20 - 64
	if addr := os.Getenv("GRPCSERVER_BODY_FLOOD_ADDR"); addr != "" {
		b := newBodyFlood(t, addr)
		b.send(t, bodies, size, 2*time.Second)
		time.Sleep(time.Second)
		return
	}
	for _, codec := range []string{codecMetapack, codecXnet} {
		t.Run(codec, func(t *testing.T) {
			addr := startServer(t, Config{Codec: codec})
			before := heapInUse()
			b := newBodyFlood(t, addr)
			b.send(t, bodies, size, time.Second)
			held := int64(heapInUse()) - int64(before)
			t.Logf("heap held for the connection: %.1f MiB", float64(held)/(1<<20))
			if held > 16<<20 {
				t.Fatalf("the server holds %.1f MiB for one connection, want at most 16", float64(held)/(1<<20))
			}
			// Now the client reads: the echo of the stream that held the
			// connection's message memory completes.
			b.c.fr.WriteSettings(http2.Setting{ID: http2.SettingInitialWindowSize, Val: 1 << 30})
			b.c.fr.WriteWindowUpdate(0, 1<<30)
			deadline := time.Now().Add(20 * time.Second)
			b.mu.Lock()
			defer b.mu.Unlock()
			done := func() (uint32, bool) {
				for id, st := range b.statuses {
					if st == "0" && b.data[id] == size {
						return id, true
					}
				}
				return 0, false
			}
			for _, ok := done(); !ok && b.err == nil && time.Now().Before(deadline); _, ok = done() {
				timer := time.AfterFunc(50*time.Millisecond, func() { b.mu.Lock(); b.grant.Broadcast(); b.mu.Unlock() })
				b.grant.Wait()
				timer.Stop()
			}
			if _, ok := done(); !ok {
				t.Fatalf("no call completed once the client read: statuses %v, echoed bytes %v", b.statuses, b.data)
			}
		})
	}
}
