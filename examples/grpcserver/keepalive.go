package main

import (
	"time"

	"golang.org/x/net/http2"
)

// liveness holds a connection's timers and rate policies (all under
// conn.mu):
//   - the idle timeout: a connection with no stream for IdleTimeout is
//     closed with GOAWAY(NO_ERROR);
//   - keepalive: when a KeepaliveTime period passes with no frame from
//     the client (checked once a period, so silence is noticed after one
//     to two periods), we send a PING, and close the connection if
//     nothing arrives within KeepaliveTimeout;
//   - the ping policy: a client PING less than MinPingInterval after the
//     previous one, with none of our HEADERS or DATA between them, is a
//     strike; past maxPingStrikes, GOAWAY ENHANCE_YOUR_CALM;
//   - rapid-reset accounting (CVE-2023-44487): each stream the client
//     resets before we finished it takes a token from a bucket of
//     ResetBurst tokens refilled at MaxResetsPerSecond; an empty bucket
//     is GOAWAY ENHANCE_YOUR_CALM.
type liveness struct {
	c *conn

	idle *time.Timer

	ka       *time.Timer
	reads    uint64 // frames read so far
	seen     uint64 // reads when the keepalive timer last ran
	pingSent bool

	lastClientPing time.Time
	sentSincePing  bool
	strikes        int

	resetTokens float64
	resetAt     time.Time
}

// maxPingStrikes is how many too-early client PINGs are forgiven.
const maxPingStrikes = 2

// keepalivePing is the payload of our keepalive PINGs.
var keepalivePing = [8]byte{'k', 'e', 'e', 'p', 'a', 'l', 'i', 'v'}

func (l *liveness) start(c *conn) {
	l.c = c
	now := time.Now()
	l.resetTokens, l.resetAt = float64(c.cfg.ResetBurst), now
	if c.cfg.IdleTimeout > 0 {
		l.idle = time.AfterFunc(c.cfg.IdleTimeout, l.onIdle)
	}
	if c.cfg.KeepaliveTime > 0 {
		l.ka = time.AfterFunc(c.cfg.KeepaliveTime, l.onKeepalive)
	}
}

func (l *liveness) stop() {
	if l.idle != nil {
		l.idle.Stop()
	}
	if l.ka != nil {
		l.ka.Stop()
	}
}

func (l *liveness) frameRead() { l.reads++ }

func (l *liveness) sentHeadersOrData() { l.sentSincePing = true }

// streamsChanged arms the idle timer when the last stream ends and stops
// it when the first one starts.
func (l *liveness) streamsChanged(n int) {
	if l.idle == nil || l.c.closing {
		return
	}
	switch n {
	case 0:
		l.idle.Reset(l.c.cfg.IdleTimeout)
	case 1:
		l.idle.Stop()
	}
}

func (l *liveness) onIdle() {
	c := l.c
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.streams) == 0 && !c.closing {
		c.goAway(http2.ErrCodeNo, "idle timeout")
	}
}

func (l *liveness) onKeepalive() {
	c := l.c
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing {
		return
	}
	active := l.reads != l.seen
	l.seen = l.reads
	if l.pingSent {
		if !active {
			c.goAway(http2.ErrCodeNo, "keepalive PING not answered")
			return
		}
		l.pingSent = false
	}
	if active {
		l.ka.Reset(c.cfg.KeepaliveTime)
		return
	}
	c.fr.WritePing(false, keepalivePing)
	c.kick()
	l.pingSent = true
	l.ka.Reset(c.cfg.KeepaliveTimeout)
}

func (l *liveness) pingAck(data [8]byte) {
	if data == keepalivePing {
		l.pingSent = false
	}
}

// clientPing applies the ping policy to a PING from the client.
func (l *liveness) clientPing(streams int) error {
	now := time.Now()
	early := !l.lastClientPing.IsZero() && now.Sub(l.lastClientPing) < l.c.cfg.MinPingInterval
	if l.sentSincePing {
		l.strikes, early = 0, false
	}
	l.lastClientPing, l.sentSincePing = now, false
	if early {
		if l.strikes++; l.strikes > maxPingStrikes {
			return connError{http2.ErrCodeEnhanceYourCalm, "too_many_pings"}
		}
	}
	return nil
}

// streamReset charges a client reset of an active stream to the bucket.
func (l *liveness) streamReset() error {
	cfg := l.c.cfg
	now := time.Now()
	l.resetTokens = min(float64(cfg.ResetBurst), l.resetTokens+now.Sub(l.resetAt).Seconds()*float64(cfg.MaxResetsPerSecond))
	l.resetAt = now
	if l.resetTokens--; l.resetTokens < 0 {
		return connError{http2.ErrCodeEnhanceYourCalm, "too many stream resets (rapid reset, CVE-2023-44487)"}
	}
	return nil
}
