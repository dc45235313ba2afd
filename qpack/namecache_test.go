package qpack

import (
	"errors"
	"strings"
	"testing"

	"github.com/metapack/metapack/internal/hcode"
	"github.com/metapack/metapack/mdelem"
)

func TestNameCache(t *testing.T) {
	huff := func(s string) []byte { return hcode.AppendEncode(nil, s) }
	tests := []struct {
		name string
		run  func(t *testing.T, c *nameCache)
	}{
		{"miss, set, hit", func(t *testing.T, c *nameCache) {
			raw := huff("connection")
			s, got := c.find(raw)
			if got != nil {
				t.Fatalf("an empty cache gave %q", got)
			}
			s.set(raw, []byte("connection"))
			if _, got := c.find(raw); string(got) != "connection" {
				t.Errorf("after set: %q", got)
			}
		}},
		{"another coding in the slot misses", func(t *testing.T, c *nameCache) {
			a := huff("pragma")
			s, _ := c.find(a)
			s.set(a, []byte("pragma"))
			for i := range 1000 {
				b := huff("x-name-" + strings.Repeat("y", i%17))
				if sb, _ := c.find(b); sb == s {
					if _, got := c.find(b); got != nil {
						t.Fatalf("%q found %q in pragma's slot", b, got)
					}
					sb.set(b, []byte("other"))
					if _, got := c.find(a); got != nil {
						t.Errorf("pragma still found after its slot was retaken: %q", got)
					}
					return
				}
			}
			t.Skip("no name shares pragma's slot")
		}},
		{"too long to hold", func(t *testing.T, c *nameCache) {
			long := strings.Repeat("z", 2*nameKeyMax)
			raw := huff(long)
			s, _ := c.find(raw)
			s.set(raw, []byte(long))
			if _, got := c.find(raw); got != nil {
				t.Errorf("held a coding of %d bytes, over %d", len(raw), nameKeyMax)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, new(nameCache)) })
	}
}

// TestNameCacheLimit decodes a section with a Huffman-coded literal name
// twice, the second time (a cache hit) with a string limit below the
// name's length: that must still be the limit's stream error.
func TestNameCacheLimit(t *testing.T) {
	d := NewDecoder(0, 0)
	name := hcode.AppendEncode(nil, "pragma") // 5 bytes: under the 3-bit prefix's 7
	value := hcode.AppendEncode(nil, "yes")   // within the limit set below
	// Literal Field Line with Literal Name (001N H 3-bit length), then
	// the value with its 7-bit length and H.
	sec := []byte{0, 0, 0x28 | byte(len(name))}
	sec = append(sec, name...)
	sec = append(append(sec, 0x80|byte(len(value))), value...)
	b := mdelem.NewBatch(4, 64)
	for i := range 2 {
		b.Reset()
		if err := d.Decode(b, uint64(4*i), sec); err != nil {
			t.Fatalf("pass %d: %v", i, err)
		}
		if f := b.At(0); f.Name.String() != "pragma" || f.Value.String() != "yes" {
			t.Fatalf("pass %d: got %q: %q", i, f.Name.String(), f.Value.String())
		}
	}
	d.SetMaxStringLength(5)
	err := d.Decode(b, 8, sec)
	if !IsStreamError(err) || !errors.Is(err, ErrStringLength) {
		t.Fatalf("a cached name over the limit: got %v, want a stream error with %v", err, ErrStringLength)
	}
}
