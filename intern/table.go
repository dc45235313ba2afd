package intern

import (
	"math/bits"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync/atomic"

	"github.com/cespare/xxhash/v2"
	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/staticdata"
)

// Limits bounds a [Table]. A table never holds more than MaxEntries strings,
// never charges more than MaxBytes, and never interns a string longer than
// MaxLen bytes. A zero field means no dynamic string is interned at all; the
// static tier is always answered. New takes a negative field as zero, and a
// MaxEntries above 1<<20 as 1<<20.
type Limits struct {
	// MaxEntries is the maximum number of strings in the table. New also
	// allocates the table's index once: 8 bytes times a power of two that is
	// at least 2*MaxEntries and below 4*MaxEntries (at least 16 slots).
	MaxEntries int
	// MaxBytes is the maximum heap the table's entries may take: for each
	// string, its record and its bytes, each rounded up to an upper bound of
	// the allocator's size class. The index above is not counted.
	MaxBytes int
	// MaxLen is the length of the longest string the table interns.
	MaxLen int
}

// DefaultLimits suits one server or client connection pool: a few thousand
// distinct names and low-cardinality values. The table takes at most 256 KiB
// for entries plus 32 KiB for its index.
var DefaultLimits = Limits{MaxEntries: 2048, MaxBytes: 256 << 10, MaxLen: 256}

// maxEntriesLimit keeps the index a sane size: 16 MiB at most.
const maxEntriesLimit = 1 << 20

// entry is one dynamic string. The handle points at atom.
type entry struct {
	atom   staticdata.Atom
	seeded uint64 // the table's seeded hash of atom.String()
}

// entrySize is the heap an entry record takes.
var entrySize = allocSize(int(reflect.TypeFor[entry]().Size()))

// Table is a bounded, lock-free interner. Lookups never lock, never write
// shared memory and never allocate; inserts claim an empty slot with
// compare-and-swap. A Table never resizes and never evicts: a handle it
// returns stays valid and canonical for the table's life. Handles of
// different tables are comparable only for static-tier strings.
//
// A Table is safe for concurrent use. Create it with [New].
type Table struct {
	slots  []atomic.Pointer[entry]
	mask   uint64
	seed   uint64
	limits Limits

	_ [64]byte // keep the counters off the cache line the lookups read

	entries atomic.Int64 // entries reserved, including ones being inserted
	bytes   atomic.Int64 // bytes reserved
}

// New returns an empty table bounded by l, with a random hash seed. A
// negative limit is taken as 0, and a MaxEntries above 1<<20 as 1<<20.
func New(l Limits) *Table {
	l.MaxEntries = min(max(l.MaxEntries, 0), maxEntriesLimit)
	l.MaxBytes = max(l.MaxBytes, 0)
	l.MaxLen = max(l.MaxLen, 0)
	n := 16
	for n < 2*l.MaxEntries {
		n <<= 1
	}
	return &Table{
		slots:  make([]atomic.Pointer[entry], n),
		mask:   uint64(n - 1),
		seed:   rand.Uint64(), // from the runtime's per-process random source
		limits: l,
	}
}

// Limits returns the table's bounds.
func (t *Table) Limits() Limits { return t.limits }

// Len returns the number of strings in the table, not counting the static
// tier. While inserts are in flight it may count them already.
func (t *Table) Len() int { return int(t.entries.Load()) }

// Bytes returns the bytes charged against Limits.MaxBytes.
func (t *Table) Bytes() int { return int(t.bytes.Load()) }

// Make returns the canonical handle of b's string, interning it if there is
// room. It reports false, with the zero Handle, when the string is not in the
// static tier or the table and is longer than MaxLen or does not fit; the
// caller then keeps its own copy. Make never keeps b, and it allocates only
// when it adds a string to the table.
func (t *Table) Make(b []byte) (Handle, bool) { return makeHandle(t, b) }

// MakeString is [Table.Make] for a string. It copies s when it interns it.
func (t *Table) MakeString(s string) (Handle, bool) { return makeHandle(t, s) }

// makeHandle is Make and MakeString.
func makeHandle[T string | []byte](t *Table, b T) (Handle, bool) {
	h, hash, slot, ok := find(t, b)
	if h.a != nil || !ok {
		return h, h.a != nil
	}
	return insert(t, b, hash, slot)
}

// Lookup returns the canonical handle of b's string if it is in the static
// tier or the table. It never inserts, never allocates and never keeps b.
func (t *Table) Lookup(b []byte) (Handle, bool) {
	h, _, _, _ := find(t, b)
	return h, h.a != nil
}

// LookupString is [Table.Lookup] for a string.
func (t *Table) LookupString(s string) (Handle, bool) {
	h, _, _, _ := find(t, s)
	return h, h.a != nil
}

// find looks b's string up in the static tier and the table. It returns
// its handle when found; otherwise, when the string may be interned
// (ok), its seeded hash and the empty slot where the probe ended.
func find[T string | []byte](t *Table, b T) (h Handle, hash, slot uint64, ok bool) {
	if tier.MayBeAtom(b) {
		if a := staticdata.Lookup(b); a != nil {
			return Handle{a}, 0, 0, true
		}
	}
	if len(b) > t.limits.MaxLen {
		return Handle{}, 0, 0, false
	}
	hash = seededHash(b, t.seed)
	i := hash & t.mask
	for {
		e := t.slots[i].Load()
		if e == nil {
			return Handle{}, hash, i, true
		}
		if e.seeded == hash && equal(e.atom.String(), b) {
			return Handle{&e.atom}, hash, i, true
		}
		i = (i + 1) & t.mask
	}
}

// insert adds b's string, whose seeded hash is h, probing from slot i, which
// was empty. If another goroutine inserts the same string first, insert
// returns that one.
//
//go:noinline
func insert[T string | []byte](t *Table, b T, h, i uint64) (Handle, bool) {
	cost := int64(entrySize + allocSize(len(b)))
	if !t.reserve(cost) {
		return Handle{}, false
	}
	s := clone(b)
	e := &entry{
		atom:   tier.New(s, xxhash.Sum64String(s)),
		seeded: h,
	}
	// The reservation guarantees an empty slot: at most MaxEntries of the
	// at least 2*MaxEntries slots are ever filled.
	for {
		w := t.slots[i].Load()
		if w == nil {
			if t.slots[i].CompareAndSwap(nil, e) {
				return Handle{&e.atom}, true
			}
			continue // lost the race for slot i: look at the winner
		}
		if w.seeded == h && w.atom.String() == s {
			t.release(cost)
			return Handle{&w.atom}, true
		}
		i = (i + 1) & t.mask
	}
}

// reserve claims one entry and cost bytes, or nothing if either would exceed
// the limits. When the table is full it writes nothing.
func (t *Table) reserve(cost int64) bool {
	for {
		n := t.entries.Load()
		if n >= int64(t.limits.MaxEntries) {
			return false
		}
		if t.entries.CompareAndSwap(n, n+1) {
			break
		}
	}
	for {
		n := t.bytes.Load()
		if n+cost > int64(t.limits.MaxBytes) {
			t.entries.Add(-1)
			return false
		}
		if t.bytes.CompareAndSwap(n, n+cost) {
			return true
		}
	}
}

func (t *Table) release(cost int64) {
	t.bytes.Add(-cost)
	t.entries.Add(-1)
}

// allocSize returns an upper bound of the heap the allocator takes for an
// object of n bytes. Go's size classes are 16 bytes apart up to 128 bytes,
// then at most an eighth of the next power of two apart up to 2 KiB, and at
// most a quarter beyond (large objects are rounded to 8 KiB pages).
func allocSize(n int) int {
	if n == 0 {
		return 0
	}
	if n <= 128 {
		return (n + 15) &^ 15
	}
	shift := 3
	if n > 2048 {
		shift = 2
	}
	step := 1 << (bits.Len(uint(n-1)) - shift)
	return (n + step - 1) &^ (step - 1)
}

// clone returns a copy of b's bytes as a string, which shares no memory
// with b.
func clone[T string | []byte](b T) string {
	switch b := any(b).(type) {
	case []byte:
		return string(b)
	case string:
		return strings.Clone(b)
	}
	panic("unreachable")
}
