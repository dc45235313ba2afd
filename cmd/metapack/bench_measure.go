package main

import (
	"runtime"
	"time"
)

// benchRounds is how many rounds each measurement's time is split into. The
// two implementations of a measurement take turns, round by round, so that a
// slow patch of a noisy machine hits both; each reports its best round.
const benchRounds = 3

// impl is one implementation of a measurement.
type impl struct {
	name string
	// pass runs once over the measurement's data.
	pass func() error
}

// benchWork is what one pass of a measurement does: ops operations over
// bytes bytes of input.
type benchWork struct {
	ops, bytes int
}

// result is one implementation's numbers for one measurement.
type result struct {
	Name     string  `json:"name"`
	Impl     string  `json:"impl"`
	NsOp     float64 `json:"ns_op"`
	MBs      float64 `json:"mb_s"`
	AllocsOp float64 `json:"allocs_op"`
}

// timer measures passes of one implementation.
type timer struct {
	im      impl
	perPass time.Duration // estimated from the warm-up
	best    time.Duration // the best round's time per pass
	mallocs uint64        // over all rounds
	passes  int           // over all rounds
}

// warmUp runs im's pass until it has taken a tenth of a round (and at least
// once), which also checks that it works, and estimates its time per pass.
func (t *timer) warmUp(round time.Duration) error {
	start := time.Now()
	n := 0
	for {
		if err := t.im.pass(); err != nil {
			return err
		}
		n++
		if el := time.Since(start); el >= round/10 {
			t.perPass = el / time.Duration(n)
			return nil
		}
	}
}

// round runs im's pass for about d, counting allocations.
func (t *timer) round(d time.Duration) error {
	n := max(1, int(d/max(t.perPass, 1)))
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	for range n {
		if err := t.im.pass(); err != nil {
			return err
		}
	}
	el := time.Since(start)
	runtime.ReadMemStats(&after)
	t.mallocs += after.Mallocs - before.Mallocs
	t.passes += n
	if per := el / time.Duration(n); t.best == 0 || per < t.best {
		t.best = per
	}
	t.perPass = el / time.Duration(n)
	return nil
}

// measure times each implementation of a measurement for about d in all,
// in alternating rounds, and returns their results in order.
func measure(name string, w benchWork, impls []impl, d time.Duration) ([]result, error) {
	round := d / benchRounds
	timers := make([]timer, len(impls))
	for i := range timers {
		timers[i].im = impls[i]
		if err := timers[i].warmUp(round); err != nil {
			return nil, err
		}
	}
	for range benchRounds {
		for i := range timers {
			if err := timers[i].round(round); err != nil {
				return nil, err
			}
		}
	}
	results := make([]result, len(timers))
	for i, t := range timers {
		ns := float64(t.best.Nanoseconds()) / float64(w.ops)
		results[i] = result{
			Name:     name,
			Impl:     t.im.name,
			NsOp:     ns,
			MBs:      float64(w.bytes) / float64(w.ops) / ns * 1e3,
			AllocsOp: float64(t.mallocs) / float64(t.passes) / float64(w.ops),
		}
	}
	return results, nil
}
