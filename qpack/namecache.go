package qpack

import "github.com/metapack/metapack/internal/indexpolicy"

// nameCache maps the Huffman coding of recent literal names to their
// decoding, so that a name the peer sends as a literal in every section,
// as a peer without a table does, skips the Huffman decoder. It is
// direct-mapped by hash, with the strings in its slots: 1 KiB in all.
type nameCache struct {
	slots [nameCacheSlots]nameSlot
}

type nameSlot struct {
	klen, vlen uint8 // 0 klen: empty
	key        [nameKeyMax]byte
	name       [nameMax]byte
}

const (
	nameCacheSlots = 16
	nameKeyMax     = 24                 // the longest Huffman coding it holds
	nameMax        = nameKeyMax * 8 / 5 // its longest decoding: a code is 5 bits or more
)

// find returns the slot of the name whose Huffman coding is raw, and the
// name when the slot holds it. The name's bytes stay until the slot is
// set again.
func (c *nameCache) find(raw []byte) (*nameSlot, []byte) {
	s := &c.slots[indexpolicy.ValueHash(raw)%nameCacheSlots]
	if s.klen != 0 && int(s.klen) == len(raw) && string(s.key[:s.klen]) == string(raw) {
		return s, s.name[:s.vlen]
	}
	return s, nil
}

// set makes s hold name, the decoding of raw, when both fit.
func (s *nameSlot) set(raw, name []byte) {
	if len(raw) == 0 || len(raw) > nameKeyMax || len(name) > nameMax {
		return
	}
	s.klen = uint8(copy(s.key[:], raw))
	s.vlen = uint8(copy(s.name[:], name))
}
