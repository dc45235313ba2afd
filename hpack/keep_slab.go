package hpack

import "github.com/metapack/metapack/mdelem"

// keepSlabSize is the size of the slabs DecodeFragmentKeep copies values
// into, and keepSlabMax the longest value cut from one: a longer value
// gets a slice of its own, so that a slab wastes at most keepSlabMax
// bytes at its end. Small, because a kept value keeps its whole slab
// alive: a caller that keeps one short value per block, say in a cache,
// holds at most keepSlabSize bytes for it, and a long value costs only
// its own bytes.
const (
	keepSlabSize = 512
	keepSlabMax  = 64
)

// keepSlab is the memory DecodeFragmentKeep copies literal values into.
// It is only ever cut forward, so no byte is handed out twice, and no
// byte is written after the value copied into it: what fn and the
// dynamic table receive as owned bytes stays as it is for as long as
// anyone holds it.
type keepSlab struct {
	slab     []byte
	slabUsed int // bytes of slab handed out
	// testMemory, set by tests only, gives each value's memory in place
	// of the slabs: bytes against a guard page.
	testMemory func(n int) []byte
}

// ownedCopy returns a copy of b as owned bytes in memory of its own (see
// keepSlab); an empty b gives owned bytes of length 0.
func (d *Decoder) ownedCopy(b []byte) mdelem.Str {
	n := len(b)
	var c []byte
	if used := d.slabUsed; n <= len(d.slab)-used {
		c = d.slab[used : used+n : used+n]
		d.slabUsed = used + n
	} else {
		c = d.keepMemory(n)
	}
	copy(c, b)
	return mdelem.StrOf(mdelem.Owned(c))
}

// keepMemory returns n bytes that the current slab has no room for: a new
// slab's first n, or a slice of their own when n is over keepSlabMax.
// Out of line: it runs once per slab.
//
//go:noinline
func (d *Decoder) keepMemory(n int) []byte {
	switch {
	case d.testMemory != nil:
		return d.testMemory(n)
	case n > keepSlabMax:
		return make([]byte, n)
	}
	d.slab, d.slabUsed = make([]byte, keepSlabSize), n
	return d.slab[:n:n]
}
