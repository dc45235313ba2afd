package mdelem

import (
	"errors"
	"fmt"
	"iter"

	"github.com/metapack/metapack/internal/tabledef"
	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/staticdata"
)

// Batch is an ordered, reusable header list. Fields appended to it stay
// valid until Reset. A Batch is not safe for concurrent use.
type Batch struct {
	fields []Field
	// arena holds the bytes of borrowed strings. When it must grow, a new
	// array takes over and fields keep pointing into the old one.
	arena []byte
	size  int
	// pins: a field may point at memory neither static nor the current
	// arena's, or err is set; Reset then clears the fields (and err), so
	// that the batch keeps nothing alive.
	pins bool
	// slots[k] is base + 1 + the index of the first field with key ID k;
	// a slot at or below base is empty. Each Reset adds 1<<32 to base, which
	// empties every slot without clearing them (all are cleared when base
	// wraps); indexes stay below 1<<32 - 1.
	base  uint64
	slots [tier.NumKeys]uint64
	// err is the first field Append rejected since the last Reset.
	err error
}

// Sentinels for the error that Batch.Err returns when Append rejected a
// field with a side that holds no string (Str.IsValid): it wraps one of
// them, and its message names the field's position and name.
var (
	ErrNoName  = errors.New("mdelem: field name holds no string (zero Str, nil atom or zero intern.Handle)")
	ErrNoValue = errors.New("mdelem: field value holds no string (zero Str, nil atom or zero intern.Handle)")
)

// Err returns the first error since the last Reset, wrapping ErrNoName or
// ErrNoValue for a field that Append rejected (its message gives where the
// field would have been, and its name), or nil. Check it before sending.
func (b *Batch) Err() error { return b.err }

// reject records that Append dropped f, whose name or value holds no
// string, unless an earlier field was rejected since the last Reset.
func (b *Batch) reject(f Field) {
	// Reset clears err with the fields, so that it costs nothing when no
	// field was rejected.
	b.pins = true
	if b.err != nil {
		return
	}
	e := &rejectError{index: len(b.fields), err: ErrNoName}
	if f.Name.IsValid() {
		e.name, e.err = f.Name.String(), ErrNoValue
	}
	b.err = e
}

// rejectError is the error Err returns: the field Append rejected, at
// index, and the sentinel saying which side holds no string.
type rejectError struct {
	index int
	name  string
	err   error // ErrNoName or ErrNoValue
}

func (e *rejectError) Error() string { return fmt.Sprintf("%v: field %d %q", e.err, e.index, e.name) }

func (e *rejectError) Unwrap() error { return e.err }

// append is Append in plain Go, and the one path for every field the fast
// path does not take (see Append): it rejects a field with a side that
// holds no string, turns a name given as bytes into its static atom when
// it has one, and copies borrowed bytes into the arena.
func (b *Batch) append(f Field) {
	nt, vt := f.Name.tag, f.Value.tag
	var a, v *staticdata.Atom
	if nt&tagBytes == 0 {
		a = f.Name.atomRaw()
	} else if s := f.Name.bytes(); tier.MayBeAtom(s) {
		if a = staticdata.Lookup(s); a != nil {
			nt = tagStatic | nt&neverIndexBit
			f.Name = atomStr(a, nt)
		}
	}
	if vt&tagBytes == 0 {
		v = f.Value.atomRaw()
	}
	if (a == nil && nt&tagBytes == 0) || (v == nil && vt&tagBytes == 0) {
		b.reject(f)
		return
	}
	// Atoms' tags hold no length, and byte kinds have no atom.
	size := int(nt&lenMask) + int(vt&lenMask)
	if v != nil {
		size += len(tier.Str(v))
		vt |= atomPins(v)
	}
	if nt&kindMask == tagBorrowed {
		f.Name = b.own(f.Name)
	}
	if vt&kindMask == tagBorrowed {
		f.Value = b.own(f.Value)
	}
	if a != nil {
		b.index(len(b.fields), a, nt|vt, size+len(tier.Str(a)))
	} else {
		if (nt|vt)&pinBit != 0 {
			b.pins = true
		}
		b.size += size + tabledef.FieldOverhead
	}
	b.fields = append(b.fields, f)
}

// index does Append's bookkeeping for field n, whose name is the atom a:
// it sets pins when tags (the two tags or'ed) has pinBit or a is outside
// the static tier, fills a's slot if it is the first field with a's key,
// and adds size, the field's name and value lengths, to the batch's size.
func (b *Batch) index(n int, a *staticdata.Atom, tags uint64, size int) {
	// Store pins only when it changes: most fields pin nothing.
	if tags&pinBit != 0 {
		b.pins = true
	}
	// One unsigned test rules out both KeyUnknown and a key past the
	// slots. Only a name without a key can be outside the static tier, as
	// a record of package intern given as Static.
	if k := uint(tier.KeyOf(a)) - 1; k < tier.NumKeys-1 {
		if s := &b.slots[1:][k]; *s <= b.base {
			*s = b.base + uint64(n) + 1
		}
	} else if tier.ID(a) == tier.NotStatic {
		b.pins = true
	}
	b.size += size + tabledef.FieldOverhead
}

// atomPins returns pinBit for a, the atom of a value, when it is outside
// the static tier, whatever its Str's tag says, and 0 otherwise.
func atomPins(a *staticdata.Atom) uint64 {
	if tier.ID(a) == tier.NotStatic {
		return pinBit
	}
	return 0
}

// own returns a copy of s, a borrowed Str, in the arena, tagged owned with
// the same length and mark. An empty one points nowhere.
func (b *Batch) own(s Str) Str {
	t := s.tag ^ (tagBorrowed ^ tagOwned)
	if s.n() == 0 {
		return bytesStr(nil, t)
	}
	d := b.reserve(s.n())
	copy(d, s.bytes())
	return bytesStr(d, t)
}

// reserve returns the next n bytes of the arena, replacing the arena with
// a larger array when it has no room. Earlier fields keep the old array
// alive, so the batch then pins it.
func (b *Batch) reserve(n int) []byte {
	m := len(b.arena)
	if cap(b.arena)-m < n {
		b.arena = make([]byte, 0, max(2*cap(b.arena), n, 256))
		b.pins = true
		m = 0
	}
	b.arena = b.arena[:m+n]
	return b.arena[m : m+n : m+n]
}

// NewBatch returns a batch with room for n fields and arenaBytes bytes of
// borrowed strings before it needs to allocate. They are hints: 0 or less
// reserves nothing, and above 65536 fields or 16 MiB they are taken as
// those; the batch grows past them as needed.
func NewBatch(n, arenaBytes int) *Batch {
	return &Batch{
		fields: make([]Field, 0, min(max(n, 0), maxHintFields)),
		arena:  make([]byte, 0, min(max(arenaBytes, 0), maxHintArena)),
	}
}

// maxHintFields and maxHintArena bound what a careless NewBatch hint can
// reserve: more than any header list within HTTP/2's usual limits holds.
const (
	maxHintFields = 1 << 16
	maxHintArena  = 16 << 20
)

// Reset empties the batch, keeping its capacity and its arena, and clears
// Err. Fields and bytes taken from the batch before are invalid afterwards.
func (b *Batch) Reset() {
	// A new base empties every slot.
	if b.base += 1 << 32; b.base == 0 {
		b.slots = [tier.NumKeys]uint64{}
	}
	if b.pins {
		clear(b.fields)
		b.pins = false
		b.err = nil // reject sets pins
	}
	b.fields = b.fields[:0]
	b.arena = b.arena[:0]
	b.size = 0
}

// Truncate drops the fields from the n-th on, keeping the first n; n at
// or above Len keeps them all, and n at or below 0 drops them all. The
// bytes of the dropped fields stay in the arena until Reset.
func (b *Batch) Truncate(n int) {
	n = max(n, 0)
	if n >= len(b.fields) {
		return
	}
	for i := n; i < len(b.fields); i++ {
		f := &b.fields[i]
		b.size -= f.Size()
		// Empty the slot the field holds: only a field that was the
		// first of its key does.
		if a := f.Name.Atom(); a != nil && a.Key() < tier.NumKeys && b.slots[a.Key()] == b.base+uint64(i)+1 {
			b.slots[a.Key()] = 0
		}
	}
	if b.pins {
		clear(b.fields[n:])
	}
	b.fields = b.fields[:n]
}

// Alloc returns n bytes of the batch's own memory, valid until Reset, for
// what a caller derives from the batch's fields, such as a binary value
// decoded; their contents are unspecified. It allocates only when the
// arena must grow, and returns nil for n at or below 0 or above 1 GiB.
func (b *Batch) Alloc(n int) []byte {
	if n <= 0 || n > maxAlloc {
		return nil
	}
	return b.reserve(n)
}

// maxAlloc bounds Alloc: more than any header list holds.
const maxAlloc = 1 << 30

// Len returns the number of fields.
func (b *Batch) Len() int { return len(b.fields) }

// Size returns the header list size in RFC 9113 terms: the sum over the
// fields of name length + value length + 32.
func (b *Batch) Size() int { return b.size }

// At returns the i-th field, or the zero Field (whose sides hold no
// string, see Str.IsValid) when i is negative or not below Len.
func (b *Batch) At(i int) Field {
	if uint(i) < uint(len(b.fields)) {
		return b.fields[i]
	}
	return Field{}
}

// All iterates over the fields in order.
func (b *Batch) All() iter.Seq2[int, Field] {
	return func(yield func(int, Field) bool) {
		for i, f := range b.fields {
			if !yield(i, f) {
				return
			}
		}
	}
}

// Get returns the first field whose name has well-known key ID k, in O(1).
// For KeyUnknown and an ID that names no key it finds nothing.
func (b *Batch) Get(k staticdata.KeyID) (Field, bool) {
	// An empty slot, at or below base, wraps around to an index past any
	// batch, so one test against the length both finds it empty and
	// bounds the index. The test of k takes the place of the bounds check
	// that indexing the slots would make.
	if k < tier.NumKeys {
		if i := b.slots[k] - b.base - 1; i < uint64(len(b.fields)) {
			return b.fields[i], true
		}
	}
	return Field{}, false
}

// GetString returns the first field named name. Well-known names take the
// O(1) path; other names are searched in order.
func (b *Batch) GetString(name string) (Field, bool) {
	if a := staticdata.Lookup(name); a != nil && a.Key() != staticdata.KeyUnknown {
		return b.Get(a.Key())
	}
	for _, f := range b.fields {
		if a := f.Name.Atom(); (a == nil || a.Key() == staticdata.KeyUnknown) && f.Name.equal(name) {
			return f, true
		}
	}
	return Field{}, false
}
