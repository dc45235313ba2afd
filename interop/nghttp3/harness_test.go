//go:build nghttp3

package nghttp3

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/metapack/metapack/interop/nghttp3/ngqpack"
)

// scenario says how the streams between an encoder and a decoder behave.
type scenario struct {
	name string
	// fragment cuts the encoder and decoder streams at random byte
	// boundaries instead of delivering each step's bytes whole.
	fragment bool
	// encDelay delivers the encoder-stream bytes of section i after
	// section i+encDelay (and section i itself before its own bytes when
	// it is above 0), so that sections arrive before their inserts.
	encDelay int
	// ackBatch holds the decoder stream back, delivering it to the
	// encoder after every ackBatch sections (0 or 1: after each).
	ackBatch int
	// cancelPct is the percentage of blocked sections whose stream is
	// cancelled instead of resumed, and of finished streams cancelled
	// after their section.
	cancelPct int
}

// conn is one direction of a connection: an encoder, a decoder, and our
// codec's side among them, whose table is compared with nghttp3's.
type conn struct {
	t          *testing.T
	enc        encoder
	dec        decoder
	ours       tableSide
	capacity   uint64
	maxBlocked uint64
	sc         scenario
	r          *rand.Rand

	log       []byte             // the whole encoder stream so far
	due       []int              // len(log) after each section
	delivered int                // bytes of log the decoder has
	decQ      []byte             // decoder-stream bytes not yet at the encoder
	want      map[uint64][]Field // blocked sections' lists
	// acked bounds the Known Received Count the encoder can have: the
	// decoder's insert count when its decoder stream last reached the
	// encoder (§2.1.4).
	acked     uint64
	step      int
	cancelled int
	blocked   int // sections that blocked
}

func (c *conn) where() string {
	return fmt.Sprintf("%s -> %s, capacity %d, blocked %d, scenario %s, section %d", c.enc.name(), c.dec.name(), c.capacity, c.maxBlocked, c.sc.name, c.step)
}

func hexTrunc(b []byte) string {
	if len(b) > 256 {
		return fmt.Sprintf("%x... (%d bytes)", b[:256], len(b))
	}
	return fmt.Sprintf("%x", b)
}

// cut splits p at random boundaries when the scenario fragments.
func (c *conn) cut(p []byte) [][]byte {
	if !c.sc.fragment || len(p) < 2 {
		return [][]byte{p}
	}
	var out [][]byte
	for len(p) > 0 {
		n := 1 + c.r.IntN(min(len(p), 1+c.r.IntN(8)))
		out = append(out, p[:n])
		p = p[n:]
	}
	return out
}

// deliverEnc gives the decoder the encoder stream up to byte upto, and
// resumes the sections that unblocks after every fragment.
func (c *conn) deliverEnc(upto int) {
	c.t.Helper()
	for _, frag := range c.cut(c.log[c.delivered:upto]) {
		if err := c.dec.readEncoderStream(frag); err != nil {
			c.t.Fatalf("%s: %s rejects encoder-stream bytes %x (at offset %d of %s): %v", c.where(), c.dec.name(), frag, c.delivered, hexTrunc(c.log), err)
		}
		c.delivered += len(frag)
		for _, id := range c.dec.unblocked() {
			want, ok := c.want[id]
			if !ok {
				c.t.Fatalf("%s: %s reports stream %d unblocked, which is not blocked", c.where(), c.dec.name(), id)
			}
			got, blocked, err := c.dec.resume(id)
			if err != nil || blocked {
				c.t.Fatalf("%s: stream %d resumed after %d encoder-stream bytes: blocked %v, %v", c.where(), id, c.delivered, blocked, err)
			}
			if err := delivered(got, want, c.enc.neverIndexed); err != nil {
				c.t.Fatalf("%s: stream %d resumed: %v", c.where(), id, err)
			}
			delete(c.want, id)
		}
	}
	c.decQ = append(c.decQ, c.dec.decoderStream()...)
}

// deliverDec gives the encoder the decoder stream held back.
func (c *conn) deliverDec() {
	c.t.Helper()
	for _, frag := range c.cut(c.decQ) {
		if err := c.enc.readDecoderStream(frag); err != nil {
			c.t.Fatalf("%s: %s rejects decoder-stream bytes %x of %x: %v", c.where(), c.enc.name(), frag, c.decQ, err)
		}
	}
	c.decQ = c.decQ[:0]
	c.acked = c.dec.insertCount()
}

// checkEvictions checks, when our codec is the encoder, that it evicted
// no entry the decoder may not have acknowledged: an entry is evictable
// only below the Known Received Count (RFC 9204 §2.1.1), which is at most
// the decoder's insert count when its decoder stream last reached the
// encoder.
func (c *conn) checkEvictions() {
	c.t.Helper()
	if c.ours != c.enc.(any) {
		return
	}
	icnt := c.ours.insertCount()
	for abs := c.acked; abs < icnt; abs++ {
		if _, _, ok := c.ours.entry(abs); !ok {
			c.t.Fatalf("%s: %s evicted entry %d, which the decoder has not acknowledged (it had %d inserts when its decoder stream last reached the encoder, and the encoder has %d): RFC 9204 §2.1.1 (encoder stream %s)", c.where(), c.ours.name(), abs, c.acked, icnt, hexTrunc(c.log))
		}
	}
}

func (c *conn) roll() bool { return c.sc.cancelPct > 0 && c.r.IntN(100) < c.sc.cancelPct }

// section sends list l as stream id's section.
func (c *conn) section(id uint64, l []Field) {
	c.t.Helper()
	sec, es, err := c.enc.encode(id, l)
	if err != nil {
		c.t.Fatalf("%s: %s: %v", c.where(), c.enc.name(), err)
	}
	c.log = append(c.log, es...)
	c.due = append(c.due, len(c.log))
	c.checkEvictions()
	if c.sc.encDelay == 0 {
		c.deliverEnc(len(c.log))
	}
	got, blocked, err := c.dec.decode(id, sec)
	if err != nil {
		c.t.Fatalf("%s: %s rejects stream %d's section %s of %v (encoder stream %d of %d bytes delivered: %s): %v", c.where(), c.dec.name(), id, hexTrunc(sec), l, c.delivered, len(c.log), hexTrunc(c.log), err)
	}
	switch {
	case blocked:
		c.blocked++
		if n := c.dec.blockedCount(); uint64(n) > c.maxBlocked {
			c.t.Fatalf("%s: stream %d's section %s blocks, with %d sections blocked: more than the %d allowed", c.where(), id, hexTrunc(sec), n, c.maxBlocked)
		}
		if c.roll() {
			c.cancelled++
			if err := c.dec.cancel(id); err != nil {
				c.t.Fatalf("%s: cancelling blocked stream %d: %v", c.where(), id, err)
			}
		} else {
			c.want[id] = l
		}
	default:
		if err := delivered(got, l, c.enc.neverIndexed); err != nil {
			c.t.Fatalf("%s: stream %d, section %s: %v", c.where(), id, hexTrunc(sec), err)
		}
		if c.roll() {
			c.cancelled++
			if err := c.dec.cancel(id); err != nil {
				c.t.Fatalf("%s: cancelling finished stream %d: %v", c.where(), id, err)
			}
		}
	}
	c.decQ = append(c.decQ, c.dec.decoderStream()...)
	if c.sc.encDelay > 0 && c.step >= c.sc.encDelay {
		c.deliverEnc(c.due[c.step-c.sc.encDelay])
	}
	if c.sc.ackBatch <= 1 || (c.step+1)%c.sc.ackBatch == 0 {
		c.deliverDec()
	}
	if c.delivered == len(c.log) {
		c.checkTables()
	}
	c.step++
}

// finish delivers everything held back and checks that nothing is left
// blocked.
func (c *conn) finish() {
	c.t.Helper()
	c.deliverEnc(len(c.log))
	c.deliverDec()
	if len(c.want) > 0 || c.dec.blockedCount() > 0 {
		c.t.Fatalf("%s: at the end, with every byte delivered, %d sections still blocked (%s counts %d)", c.where(), len(c.want), c.dec.name(), c.dec.blockedCount())
	}
	c.checkTables()
	if e, ok := c.enc.(ngEncoder); ok {
		if n := e.NumBlockedStreams(); n != 0 {
			c.t.Errorf("%s: at the end, with every acknowledgment delivered, nghttp3's encoder counts %d streams that may block", c.where(), n)
		}
	}
}

// checkTables compares our side's dynamic table, and both sides' insert
// counts, with nghttp3's decoder's table (read through probes), once the
// decoder has the whole encoder stream.
func (c *conn) checkTables() {
	c.t.Helper()
	icnt := c.ours.insertCount()
	if d := c.dec.insertCount(); d != icnt {
		c.t.Fatalf("%s: insert counts: %s %d, %s %d (encoder stream %s)", c.where(), c.ours.name(), icnt, c.dec.name(), d, hexTrunc(c.log))
	}
	var mine []Field
	oldest := icnt
	for abs := uint64(0); abs < icnt; abs++ {
		name, value, ok := c.ours.entry(abs)
		switch {
		case ok:
			if len(mine) == 0 {
				oldest = abs
			}
			mine = append(mine, Field{Name: name, Value: value})
		case len(mine) > 0:
			c.t.Fatalf("%s: %s holds entry %d but not %d", c.where(), c.ours.name(), oldest, abs)
		}
	}
	if _, _, ok := c.ours.entry(icnt); ok {
		c.t.Fatalf("%s: %s holds entry %d, at its insert count", c.where(), c.ours.name(), icnt)
	}
	if c.capacity < 32 {
		if icnt > 0 {
			c.t.Fatalf("%s: %d inserts into a table of capacity %d", c.where(), icnt, c.capacity)
		}
		return
	}
	theirs, err := ngqpack.Table(c.log, c.capacity, oldest, icnt)
	if err != nil {
		c.t.Fatalf("%s: %s holds entries %d..%d %v; nghttp3's decoder: %v (encoder stream %s)", c.where(), c.ours.name(), oldest, icnt-1, mine, err, hexTrunc(c.log))
	}
	if !slices.Equal(mine, theirs) {
		c.t.Fatalf("%s: entries %d..%d: %s %v, nghttp3's decoder %v", c.where(), oldest, icnt-1, c.ours.name(), mine, theirs)
	}
	if s, ok := c.ours.(interface {
		TableSize() (size, capacity uint64)
	}); ok {
		size, capacity := s.TableSize()
		var want uint64
		for _, f := range mine {
			want += uint64(len(f.Name)+len(f.Value)) + 32
		}
		if size != want || capacity > c.capacity || size > capacity {
			c.t.Fatalf("%s: %s's TableSize is %d of capacity %d; its entries %v make %d, and the capacity advertised is %d", c.where(), c.ours.name(), size, capacity, mine, want, c.capacity)
		}
	}
}

// delivered checks a decoded list against the one encoded: the same names
// and values in order, every sensitive field with the N bit, and no other
// field with it unless the encoder's policy puts it there.
func delivered(got, want []Field, policy func(Field) bool) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d fields %v, want %d %v", len(got), got, len(want), want)
	}
	for i, g := range got {
		w := want[i]
		switch {
		case g.Name != w.Name || g.Value != w.Value:
			return fmt.Errorf("field %d is %v, want %v", i, g, w)
		case w.Sensitive && !g.Sensitive:
			return fmt.Errorf("field %d, %v, is sensitive but arrived without the N bit", i, w)
		case g.Sensitive && !w.Sensitive && !policy(g):
			return fmt.Errorf("field %d, %v, arrived with the N bit", i, g)
		}
	}
	return nil
}

// newConn returns a connection from enc to dec; ours is our codec among
// them, and the run's random choices follow seed.
func newConn(t *testing.T, enc encoder, dec decoder, ours tableSide, capacity, maxBlocked uint64, sc scenario, seed uint64) *conn {
	return &conn{t: t, enc: enc, dec: dec, ours: ours, capacity: capacity, maxBlocked: maxBlocked, sc: sc,
		r: rand.New(rand.NewPCG(seed, 3)), want: map[uint64][]Field{}}
}

// send sends lists as stream IDs 0, 4, 8..., then delivers what was held
// back.
func (c *conn) send(lists [][]Field) {
	c.t.Helper()
	for i, l := range lists {
		c.section(uint64(4*i), l)
	}
	c.finish()
}

// run sends lists from enc to dec under sc.
func run(t *testing.T, enc encoder, dec decoder, ours tableSide, capacity, maxBlocked uint64, sc scenario, seed uint64, lists [][]Field) *conn {
	t.Helper()
	c := newConn(t, enc, dec, ours, capacity, maxBlocked, sc, seed)
	c.send(lists)
	return c
}
