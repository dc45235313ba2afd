package hpack

import "github.com/metapack/metapack/mdelem"

// keepSlabSize is the size of the slabs DecodeFragmentFunc copies values
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

// keepSlab is the memory DecodeFragmentFunc copies literal values into:
// two runs of slabs, one for the values of literals with incremental
// indexing, which the dynamic table keeps, and one for the others. Each is
// only ever cut forward, so no byte is handed out twice, and no byte is
// written after the value copied into it: what fn and the dynamic table
// receive as owned bytes stays as it is for as long as anyone holds it.
//
// Kept apart, the table's values fill their slabs in the order the table
// evicts them, so the slabs the table keeps alive hold its values and at
// most two slabs' worth of others: a peer cannot make each of a table's
// small entries keep a slab of its own alive by sending other values
// between them.
type keepSlab struct {
	indexed, others slab
}

// slab is the current slab of one run, and how much of it is handed out.
type slab struct {
	b    []byte
	used int
}

// ownedCopy returns a copy of b as owned bytes in memory of its own (see
// keepSlab), from the indexed run when indexing is set; an empty b gives
// owned bytes of length 0.
func (d *Decoder) ownedCopy(b []byte, indexing bool) mdelem.Str {
	if len(b) == 0 {
		return mdelem.StrOf(mdelem.Owned(nil))
	}
	s := &d.keepSlab.others
	if indexing {
		s = &d.keepSlab.indexed
	}
	c := s.cut(len(b))
	if c == nil {
		c = d.keepMemory(s, len(b))
	}
	copy(c, b)
	return mdelem.StrOf(mdelem.Owned(c))
}

// cut returns the next n bytes of s's slab, n > 0, or nil when it has
// not that many left.
func (s *slab) cut(n int) []byte {
	used := s.used
	if n > len(s.b)-used {
		return nil
	}
	s.used = used + n
	return s.b[used : used+n : used+n]
}

// keepMemory returns n bytes that s's current slab has no room for: a new
// slab's first n, or a slice of their own when n is over keepSlabMax.
// Out of line: it runs once per slab.
//
//go:noinline
func (d *Decoder) keepMemory(s *slab, n int) []byte {
	if n > keepSlabMax {
		return make([]byte, n)
	}
	s.b, s.used = make([]byte, keepSlabSize), n
	return s.b[:n:n]
}
