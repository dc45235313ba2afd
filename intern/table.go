package intern

import (
	"hash/maphash"
	"math"
	"math/bits"
	"reflect"
	"strings"
	"sync/atomic"

	"github.com/cespare/xxhash/v2"
	"github.com/metapack/metapack/internal/tier"
)

// Limits bounds a [Table]. A zero field takes its default: 2048 entries,
// 256 KiB and 256 bytes, which suit one connection pool (at most 256 KiB
// of entries plus a 32 KiB index). A negative field means no limit: no
// bound on bytes or length, and 1<<20 entries, the most a table holds
// (New then allocates a 16 MiB index at once).
type Limits struct {
	// MaxEntries is the maximum number of strings in the table. Its index
	// takes 8 bytes times a power of two in [2, 4)*MaxEntries (16 at least).
	MaxEntries int
	// MaxBytes is the maximum heap the table's entries may take: for each
	// string, its record and its bytes, each rounded up to an upper bound
	// of the allocator's size class. The index is not counted.
	MaxBytes int
	// MaxLen is the length of the longest string the table interns.
	MaxLen int
}

// maxEntriesLimit keeps the index a sane size: 16 MiB at most.
const maxEntriesLimit = 1 << 20

// entry is one dynamic string. The handle points at atom.
type entry struct {
	atom   tier.Atom
	seeded uint64 // the table's seeded hash of atom.String()
}

// entrySize is the heap an entry record takes.
var entrySize = allocSize(int(reflect.TypeFor[entry]().Size()))

// Table is a bounded, lock-free interner, safe for concurrent use. Lookups
// never lock, write shared memory or allocate. Handles of different tables
// are comparable only for static-tier strings. Create it with [New]; a nil
// or zero Table answers from the static tier alone.
type Table struct {
	slots  []atomic.Pointer[entry]
	mask   uint64
	seed   maphash.Seed
	limits Limits

	_ [64]byte // keep the counters off the cache line the lookups read

	entries atomic.Int64 // entries reserved, including ones being inserted
	bytes   atomic.Int64 // bytes reserved
}

// New returns an empty table bounded by l, with a random hash seed.
func New(l Limits) *Table {
	def := func(v, d int) int {
		switch {
		case v == 0:
			return d
		case v < 0:
			return math.MaxInt
		}
		return v
	}
	l.MaxEntries = min(def(l.MaxEntries, 2048), maxEntriesLimit)
	l.MaxBytes = def(l.MaxBytes, 256<<10)
	l.MaxLen = def(l.MaxLen, 256)
	n := 16
	for n < 2*l.MaxEntries {
		n <<= 1
	}
	return &Table{
		slots:  make([]atomic.Pointer[entry], n),
		mask:   uint64(n - 1),
		seed:   maphash.MakeSeed(),
		limits: l,
	}
}

// Len returns the number of strings in the table, not counting the static
// tier. While inserts are in flight it may count them already.
func (t *Table) Len() int {
	if t == nil {
		return 0
	}
	return int(t.entries.Load())
}

// Make returns the canonical handle of s, a string or byte slice,
// interning it in t if there is room, or false with the zero Handle when
// it is too long or does not fit. It never keeps s, and allocates only
// when it adds a string.
func Make[T ~string | ~[]byte](t *Table, s T) (Handle, bool) {
	if h, ok := Lookup(t, s); ok || t == nil || len(s) > t.limits.MaxLen {
		return h, ok
	}
	return insert(t, s)
}

// Lookup returns the canonical handle of s if it is in the static tier or
// in t. It never inserts, never allocates and never keeps s.
func Lookup[T ~string | ~[]byte](t *Table, s T) (Handle, bool) {
	if tier.MayBeAtom(s) {
		if a := tier.Lookup(s); a != nil {
			return Handle{a}, true
		}
	}
	if t == nil || len(s) > t.limits.MaxLen {
		return Handle{}, false
	}
	hash := seededHash(t.seed, s)
	for i := hash & t.mask; ; i = (i + 1) & t.mask {
		e := t.slots[i].Load()
		if e == nil {
			return Handle{}, false
		}
		if e.seeded == hash && tier.Str(&e.atom) == string(s) {
			return Handle{&e.atom}, true
		}
	}
}

// seededHash returns the table's hash of b.
func seededHash[T ~string | ~[]byte](seed maphash.Seed, b T) uint64 {
	switch v := any(b).(type) {
	case string:
		return maphash.String(seed, v)
	case []byte:
		return maphash.Bytes(seed, v)
	}
	// A named string or byte-slice type: the same hash, a byte at a time.
	var h maphash.Hash
	h.SetSeed(seed)
	for i := 0; i < len(b); i++ {
		h.WriteByte(b[i])
	}
	return h.Sum64()
}

// insert adds b's string, which Lookup did not find. If another goroutine
// inserts the same string first, insert returns that one.
//
//go:noinline
func insert[T ~string | ~[]byte](t *Table, b T) (Handle, bool) {
	cost := int64(entrySize + allocSize(len(b)))
	if !t.reserve(cost) {
		return Handle{}, false
	}
	s := strings.Clone(string(b))
	h := seededHash(t.seed, s)
	e := &entry{atom: tier.New(s, xxhash.Sum64String(s)), seeded: h}
	// The reservation guarantees an empty slot: at most MaxEntries of the
	// at least 2*MaxEntries slots are ever filled.
	for i := h & t.mask; ; {
		w := t.slots[i].Load()
		if w == nil {
			if t.slots[i].CompareAndSwap(nil, e) {
				return Handle{&e.atom}, true
			}
			continue // lost the race for slot i: look at the winner
		}
		if w.seeded == h && tier.Str(&w.atom) == s {
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

// allocSize bounds the heap Go's allocator takes for n bytes: its size
// classes are 16 bytes apart up to 128, then at most 1/8 of the next power
// of two up to 2 KiB, and 1/4 beyond.
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
