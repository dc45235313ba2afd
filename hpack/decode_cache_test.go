package hpack

import (
	"testing"

	"github.com/metapack/metapack/intern"
	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// cachedAtom reads c as the decoder does: raw's slot, then its atom (nil
// when the slot holds bytes).
func cachedAtom(c *atomCache, raw []byte) *staticdata.Atom {
	if s := c.lookup(raw); s != nil {
		return s.atom
	}
	return nil
}

func TestAtomCacheKeys(t *testing.T) {
	var c atomCache
	strs := []string{"a", "ab", "abcdefg", "abcdefgh", "abcdefghi", "abcdefghijklmnop", "bbcdefghijklmnop", "abcdefghijklmnoq", "\x00", "\x00\x00"}
	atoms := make([]staticdata.Atom, len(strs))
	for i, s := range strs {
		atoms[i] = staticdata.Atom(tier.New(s, 0))
		c.put([]byte(s), &atoms[i])
		if got := cachedAtom(&c, []byte(s)); got != &atoms[i] {
			t.Fatalf("get(%q) right after put = %v", s, got)
		}
	}
	// Whatever survived in the cache must map to its own string.
	for _, s := range strs {
		if a := cachedAtom(&c, []byte(s)); a != nil && a.String() != s {
			t.Errorf("get(%q) = atom %q", s, a.String())
		}
	}
	if cachedAtom(&c, []byte("abcdefghijklmnopq")) != nil || cachedAtom(&c, nil) != nil {
		t.Error("strings outside 1..16 bytes must not be cached")
	}
	c.reset()
	if cachedAtom(&c, []byte("a")) != nil {
		t.Error("reset left an entry")
	}
}

// TestDecoderCacheFollowsInterner checks that a repeated Huffman literal
// decodes to the same interned atom, and that changing the interner starts
// afresh.
func TestDecoderCacheFollowsInterner(t *testing.T) {
	block := literal(0x00, "x-tenant-id", "acme", true)
	d := NewDecoder(DefaultTableSize)
	t1 := intern.New(intern.Limits{})
	d.SetInterner(t1)
	b := mdelem.NewBatch(0, 0)
	var first *staticdata.Atom
	for i := range 3 {
		b.Reset()
		if err := d.Decode(b, block); err != nil {
			t.Fatal(err)
		}
		a := b.At(0).Name.Atom()
		if a == nil || a.String() != "x-tenant-id" {
			t.Fatalf("round %d: name %v", i, b.At(0).Name)
		}
		if first == nil {
			first = a
		} else if a != first {
			t.Fatalf("round %d: a different atom for the same name", i)
		}
	}
	t2 := intern.New(intern.Limits{})
	d.SetInterner(t2)
	b.Reset()
	if err := d.Decode(b, block); err != nil {
		t.Fatal(err)
	}
	h, _ := intern.Make(t2, "x-tenant-id")
	if b.At(0).Name.Atom() != h.Atom() {
		t.Error("after SetInterner the cache still answered from the old table")
	}
}

// TestDecoderResetForgetsCache checks that Reset leaves no cached string
// behind: a decoder reused for a new connection starts as a new one does.
func TestDecoderResetForgetsCache(t *testing.T) {
	d := NewDecoder(DefaultTableSize)
	b := mdelem.NewBatch(0, 0)
	raw := AppendHuffmanString(nil, "x-tenant-id")
	if err := d.Decode(b, literal(0x00, "x-tenant-id", "acme", true)); err != nil {
		t.Fatal(err)
	}
	if d.cache.lookup(raw) == nil {
		t.Fatal("the name was not cached: the test proves nothing")
	}
	d.Reset()
	if d.cache.lookup(raw) != nil {
		t.Error("Reset kept the cached name")
	}
	if d.cache != nil && *d.cache != (atomCache{}) {
		t.Error("Reset left cache slots filled")
	}
}
