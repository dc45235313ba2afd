package intern

import (
	"fmt"
	"reflect"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// TestAbuse feeds a flood of distinct attacker strings, as a peer sending
// ever-new header names or values would (compare CVE-2022-41717), into a
// table bounded at 1 MiB.
func TestAbuse(t *testing.T) {
	n := 1_000_000
	if raceEnabled || testing.Short() {
		n = 100_000
	}
	limits := Limits{MaxEntries: 16384, MaxBytes: 1 << 20, MaxLen: 64}
	const slack = 256 << 10 // the test's own allocations and runtime noise

	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)

	tbl := New(limits)
	index := len(tbl.slots) * int(reflect.TypeFor[atomic.Pointer[entry]]().Size())
	early := make([]Handle, 10)
	for i := range early {
		var ok bool
		if early[i], ok = Make(tbl, fmt.Sprintf("x-early-%d", i)); !ok {
			t.Fatalf("x-early-%d not interned", i)
		}
	}

	start := time.Now()
	buf := []byte("x-attacker-0000000000-padding-to-40-byte")
	prefix := len("x-attacker-")
	interned := 0
	for i := range n {
		putDigits(buf[prefix:prefix+10], i)
		if _, ok := Make(tbl, buf); ok {
			interned++
		}
	}
	elapsed := time.Since(start)

	runtime.GC()
	runtime.ReadMemStats(&m1)
	growth := int64(m1.HeapAlloc) - int64(m0.HeapAlloc)
	t.Logf("%d strings in %v: %d interned, Len %d, Bytes %d, index %d, heap growth %d",
		n, elapsed, interned, tbl.Len(), int(tbl.bytes.Load()), index, growth)

	if tbl.Len() > limits.MaxEntries || int(tbl.bytes.Load()) > limits.MaxBytes {
		t.Errorf("table past its bounds: Len %d, Bytes %d, limits %+v", tbl.Len(), int(tbl.bytes.Load()), limits)
	}
	if tbl.Len() != len(early)+interned {
		t.Errorf("Len %d, want %d", tbl.Len(), len(early)+interned)
	}
	// The table must have filled up: no room left for another entry.
	if room := limits.MaxBytes - int(tbl.bytes.Load()); room >= entrySize+allocSize(len(buf)) {
		t.Errorf("table not full after the flood: %d bytes left", room)
	}
	if max := int64(limits.MaxBytes + index + slack); growth > max {
		t.Errorf("heap grew by %d bytes, more than the bound %d (MaxBytes + index + slack)", growth, max)
	}
	// The byte accounting must be honest: the table's charge covers its heap.
	if max := int64(int(tbl.bytes.Load()) + index + slack); growth > max {
		t.Errorf("heap grew by %d bytes, more than charged %d + index + slack", growth, int(tbl.bytes.Load()))
	}

	// Misses on a full table allocate nothing.
	next := n
	allocs := testing.AllocsPerRun(1000, func() {
		putDigits(buf[prefix:prefix+10], next)
		next++
		if _, ok := Make(tbl, buf); ok {
			t.Fatalf("Make(%q) interned into a full table", buf)
		}
	})
	if allocs != 0 {
		t.Errorf("a miss on a full table: %v allocs, want 0", allocs)
	}

	// Handles taken before the flood stay valid and canonical.
	for i, h := range early {
		s := fmt.Sprintf("x-early-%d", i)
		if h.Atom().String() != s {
			t.Errorf("early handle %d now holds %q", i, h.Atom().String())
		}
		if got, ok := Make(tbl, s); !ok || got != h {
			t.Errorf("Make/string(%q) = %p, %v; want the early handle %p", s, got.Atom(), ok, h.Atom())
		}
	}
	if elapsed > 5*time.Second {
		t.Errorf("flood took %v", elapsed)
	}
	runtime.KeepAlive(tbl)
}

// putDigits writes n in decimal into b, zero-padded to len(b) digits.
func putDigits(b []byte, n int) {
	for i := len(b) - 1; i >= 0; i-- {
		b[i] = byte('0' + n%10)
		n /= 10
	}
}
