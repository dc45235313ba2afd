package hpack

import (
	"strings"
	"testing"

	"github.com/metapack/metapack/mdelem"
)

// TestStrCache checks the cache's three promises: the same bytes again
// cost no allocation, the strings kept stay within the budget, and every
// string handed out holds the bytes asked for.
func TestStrCache(t *testing.T) {
	c := newStrCache()
	b := mdelem.NewBatch(1, 0)
	str := func(v string) mdelem.Str {
		b.Reset()
		b.Append(mdelem.From(mdelem.BorrowString("x-name"), mdelem.BorrowString(v)))
		return b.At(0).Value
	}
	hot := str("a value the peer repeats")
	c.bytesStr(hot)
	if n := testing.AllocsPerRun(100, func() { c.bytesStr(hot) }); n != 0 {
		t.Errorf("a repeated value costs %v allocations, want 0", n)
	}
	for i := range 2000 {
		v := strings.Repeat(string(rune('a'+i%26)), 1000+i)
		if got := c.bytesStr(str(v)); got != v {
			t.Fatalf("string %d: got %d bytes, want %d", i, len(got), len(v))
		}
		if c.bytes > strCacheBudget {
			t.Fatalf("after %d strings the cache holds %d bytes, over its %d budget", i+1, c.bytes, strCacheBudget)
		}
	}
	sum := 0
	for _, s := range c.slots {
		sum += len(s)
	}
	if sum != c.bytes {
		t.Errorf("slots hold %d bytes, the count says %d", sum, c.bytes)
	}
}
