package mdelem

import (
	"iter"
	"slices"
	"unsafe"

	"github.com/metapack/metapack/staticdata"
)

// Batch is an ordered, reusable header list. Fields appended to it stay
// valid until Reset. A Batch is not safe for concurrent use.
type Batch struct {
	fields []Field
	// arena holds the bytes of borrowed strings. When it must grow, a new
	// array takes over and fields keep pointing into the old one.
	arena []byte
	// slots[k] is 1 + the index of the first field whose name has key ID k,
	// or 0 when there is none.
	slots [staticdata.NumKeys]uint32
	size  int
	// pins is set once a field may point at memory that is neither static
	// nor the current arena: caller-owned bytes, an interned atom, or an
	// arena array since replaced. Reset then clears the fields so that the
	// batch does not keep that memory alive.
	pins bool
}

// NewBatch returns a batch with room for n fields and arenaBytes bytes of
// borrowed strings before it needs to allocate.
func NewBatch(n, arenaBytes int) *Batch {
	return &Batch{fields: make([]Field, 0, n), arena: make([]byte, 0, arenaBytes)}
}

// Reset empties the batch, keeping its capacity and its arena. Fields and
// bytes taken from the batch before are invalid afterwards.
func (b *Batch) Reset() {
	b.slots = [staticdata.NumKeys]uint32{} // a few wide stores
	if b.pins {
		clear(b.fields)
		b.pins = false
	}
	b.fields = b.fields[:0]
	b.arena = b.arena[:0]
	b.size = 0
}

// Append adds f at the end of the batch. It copies borrowed bytes into the
// arena, adopts owned bytes, and takes an atom's key ID as it is. A name
// given as bytes is looked up in the static tier (a perfect hash, no
// allocation) and, when found, replaced by its atom so that later
// comparisons are pointer compares.
func (b *Batch) Append(f Field) {
	n := len(b.fields)
	if n == cap(b.fields) || f.Name.kind > uint(KindInterned) || f.Name.p == nil {
		b.appendSlow(f)
		return
	}
	// Fast path: room for the field and an atom for its name. The name,
	// the slot and the size are done before the value's copy, a call,
	// so that little is live across it.
	a := (*staticdata.Atom)(f.Name.p)
	vp, vn, vk := f.Value.p, f.Value.n, f.Value.kind
	if vk == uint(KindBorrowed) && cap(b.arena)-len(b.arena) < vn {
		b.appendSlow(f)
		return
	}
	// Store pins only when it changes: most fields pin nothing, and a
	// read-modify-write of it on every field costs more than a branch.
	if f.Name.kind == uint(KindInterned) || vk == uint(KindOwned) || vk == uint(KindInterned) {
		b.pins = true
	}
	b.fields = b.fields[:n+1]
	p := &b.fields[n]
	p.Name.p, p.Name.n, p.Name.kind = f.Name.p, f.Name.n, f.Name.kind
	p.Sensitive = f.Sensitive
	if a.Key != staticdata.KeyUnknown && b.slots[a.Key] == 0 {
		b.slots[a.Key] = uint32(n) + 1
	}
	b.size += len(a.S) + f.Value.Len() + 32
	if vk == uint(KindBorrowed) {
		// Copy into the arena, which has room; the copy then belongs to
		// the batch, so it is owned.
		m := len(b.arena)
		dst := b.arena[m : m+vn]
		copy(dst, unsafe.Slice((*byte)(vp), vn))
		b.arena = b.arena[:m+vn]
		vp, vk = unsafe.Pointer(unsafe.SliceData(dst)), uint(KindOwned)
	}
	p.Value.p, p.Value.n, p.Value.kind = vp, vn, vk
}

// appendSlow is Append for a full batch, or a field with bytes to resolve
// or copy.
func (b *Batch) appendSlow(f Field) {
	n := len(b.fields)
	if n == cap(b.fields) {
		b.fields = slices.Grow(b.fields, 1)
	}
	b.fields = b.fields[:n+1]
	p := &b.fields[n]
	p.Name.p, p.Name.n, p.Name.kind = f.Name.p, f.Name.n, f.Name.kind
	p.Value.p, p.Value.n, p.Value.kind = f.Value.p, f.Value.n, f.Value.kind
	p.Sensitive = f.Sensitive
	b.pins = true // rare enough not to sort out
	b.adopt(p, n)
}

// adopt finishes appending the field in slot n: it resolves a name given
// as bytes, copies borrowed bytes into the arena, and records the key.
func (b *Batch) adopt(p *Field, n int) {
	// The key and the sizes are kept in locals rather than read back from
	// *p: a read of a field just stored whole can stall on forwarding.
	key := staticdata.KeyUnknown
	size := 32
	if a := p.Name.Atom(); a != nil {
		key, size = a.Key, size+len(a.S)
	} else if a := staticdata.LookupBytes(p.Name.Bytes()); a != nil {
		p.Name = Str{p: unsafe.Pointer(a), kind: uint(KindStatic)}
		key, size = a.Key, size+len(a.S)
	} else {
		size += p.Name.n
		if p.Name.kind == uint(KindBorrowed) {
			// Copied, the bytes belong to the batch: from here on they are owned.
			p.Name = strBytes(b.copyIn(p.Name.Bytes()), KindOwned)
		}
	}
	size += p.Value.Len()
	if p.Value.kind == uint(KindBorrowed) {
		p.Value = strBytes(b.copyIn(p.Value.Bytes()), KindOwned)
	}
	if key != staticdata.KeyUnknown && b.slots[key] == 0 {
		b.slots[key] = uint32(n) + 1
	}
	b.size += size
}

// copyIn copies p into the arena and returns the copy.
func (b *Batch) copyIn(p []byte) []byte {
	n := len(b.arena)
	if cap(b.arena)-n < len(p) {
		// Grow into a fresh array; earlier fields keep the old one alive.
		b.arena = make([]byte, 0, max(2*cap(b.arena), len(p), 256))
		b.pins = true
		n = 0
	}
	b.arena = append(b.arena, p...)
	return b.arena[n:len(b.arena):len(b.arena)]
}

// Len returns the number of fields.
func (b *Batch) Len() int { return len(b.fields) }

// Size returns the header list size in RFC 9113 terms: the sum over the
// fields of name length + value length + 32.
func (b *Batch) Size() int { return b.size }

// At returns the i-th field.
func (b *Batch) At(i int) Field { return b.fields[i] }

// Fields returns the fields in order. The slice is the batch's own: do not
// modify it or keep it past Reset.
func (b *Batch) Fields() []Field { return b.fields }

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
func (b *Batch) Get(k staticdata.KeyID) (Field, bool) {
	if i := b.slots[k]; i != 0 {
		return b.fields[i-1], true
	}
	return Field{}, false
}

// Value returns the value of the first field with key ID k, in O(1).
func (b *Batch) Value(k staticdata.KeyID) (Str, bool) {
	f, ok := b.Get(k)
	return f.Value, ok
}

// GetString returns the first field named name. Well-known names take the
// O(1) path; other names are searched in order.
func (b *Batch) GetString(name string) (Field, bool) {
	if a := staticdata.Lookup(name); a != nil && a.Key != staticdata.KeyUnknown {
		return b.Get(a.Key)
	}
	for _, f := range b.fields {
		if f.Key() == staticdata.KeyUnknown && f.Name.EqualString(name) {
			return f, true
		}
	}
	return Field{}, false
}

// GetBytes is GetString for a byte slice; it does not allocate.
func (b *Batch) GetBytes(name []byte) (Field, bool) {
	return b.GetString(bytesView(name))
}
