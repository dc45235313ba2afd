package qpack

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// cacheGet looks key up, as the codecs do, and returns its value.
func cacheGet(c *strCache, key string) ([]byte, bool) {
	s, _, ok := lookup(c, key)
	if !ok {
		return nil, false
	}
	return c.value(s), true
}

func cachePut(c *strCache, key, value string) {
	s, h, _ := lookup(c, key)
	store(c, s, h, key, []byte(value))
}

// slotMate returns a key of n bytes other than key that takes key's slot.
func slotMate(t *testing.T, key string, n int) string {
	t.Helper()
	var c strCache
	want, _, _ := lookup(&c, key)
	for i := range 100000 {
		k := fmt.Sprintf("%0*d", n, i)
		if s, _, _ := lookup(&c, k); s == want && k != key {
			return k
		}
	}
	t.Fatal("no key shares the slot")
	return ""
}

func TestStrCache(t *testing.T) {
	const a, b = "content-type: text/html", "x-request-id-0001"
	tests := []struct {
		name string
		run  func(t *testing.T, c *strCache)
	}{
		{"miss then hit", func(t *testing.T, c *strCache) {
			if _, ok := cacheGet(c, a); ok {
				t.Fatal("an empty cache hit")
			}
			cachePut(c, a, "coded a")
			cachePut(c, b, "coded b")
			for key, want := range map[string]string{a: "coded a", b: "coded b"} {
				if got, ok := cacheGet(c, key); !ok || string(got) != want {
					t.Errorf("%q: got %q, %v; want %q", key, got, ok, want)
				}
			}
		}},
		{"a key taking the slot ends the old one", func(t *testing.T, c *strCache) {
			cachePut(c, a, "coded a")
			m := slotMate(t, a, len(a))
			cachePut(c, m, "coded mate")
			if got, ok := cacheGet(c, a); ok {
				t.Errorf("%q hit with %q after its slot was retaken", a, got)
			}
			if got, ok := cacheGet(c, m); !ok || string(got) != "coded mate" {
				t.Errorf("the new key: got %q, %v", got, ok)
			}
		}},
		{"the value a caller appends to stays apart", func(t *testing.T, c *strCache) {
			cachePut(c, a, "coded a")
			cachePut(c, b, "coded b")
			got, _ := cacheGet(c, a)
			_ = append(got, "overwrites?"...)
			if got, ok := cacheGet(c, b); !ok || string(got) != "coded b" {
				t.Errorf("appending to a's value changed b's: %q, %v", got, ok)
			}
		}},
		{"remember stores the second miss", func(t *testing.T, c *strCache) {
			s, h, _ := lookup(c, a)
			remember(c, s, h, a, []byte("coded a"))
			if _, ok := cacheGet(c, a); ok {
				t.Fatal("stored at the first miss")
			}
			s, h, _ = lookup(c, a)
			remember(c, s, h, a, []byte("coded a"))
			if got, ok := cacheGet(c, a); !ok || string(got) != "coded a" {
				t.Errorf("after the second miss: got %q, %v", got, ok)
			}
		}},
		{"too long to store", func(t *testing.T, c *strCache) {
			long := strings.Repeat("v", strCacheBudget/4)
			cachePut(c, a, long)
			if _, ok := cacheGet(c, a); ok {
				t.Error("stored a key and value longer than a quarter of the ring")
			}
			if c.ring != nil {
				t.Errorf("the ring was made for nothing: %d bytes", len(c.ring))
			}
		}},
		{"overwritten bytes miss", func(t *testing.T, c *strCache) {
			cachePut(c, a, "coded a")
			// Keys that never take a's slot, until the ring has wrapped
			// past a's bytes.
			sa, _, _ := lookup(c, a)
			for i := 0; c.wrote < 2*strCacheBudget; i++ {
				k := fmt.Sprintf("filler-%08d", i)
				if s, _, _ := lookup(c, k); s != sa {
					cachePut(c, k, strings.Repeat("f", 200))
				}
			}
			if got, ok := cacheGet(c, a); ok {
				t.Errorf("hit with %q after the ring wrapped over it", got)
			}
			if len(c.ring) != strCacheBudget {
				t.Errorf("ring of %d bytes, want the budget, %d", len(c.ring), strCacheBudget)
			}
		}},
		{"bytes rewritten as the same key miss", func(t *testing.T, c *strCache) {
			// Another store may put a's key bytes back where they were,
			// with other bytes where a's value was: a must miss, not give
			// those bytes.
			sa, _, _ := lookup(c, a)
			i := 0
			fill := func(until func() bool) {
				for ; !until(); i++ {
					k := fmt.Sprintf("filler-%08d", i)
					if s, _, _ := lookup(c, k); s != sa {
						cachePut(c, k, strings.Repeat("f", 100))
					}
				}
			}
			fill(func() bool { return len(c.ring) == strCacheBudget && c.wrote > strCacheBudget/2 })
			cachePut(c, a, "coded a")
			at := sa.start + strCacheBudget // where the ring comes back to a's bytes
			fill(func() bool { return at-c.wrote < 400 })
			f := slotMate(t, b, len(b)) // a key whose slot is not a's
			if s, _, _ := lookup(c, f); s == sa {
				t.Skip("the crafted key shares a's slot")
			}
			pad := int(at-c.wrote) - len(f)
			cachePut(c, f, strings.Repeat("p", pad)+a+"not a's value")
			if got, ok := cacheGet(c, a); ok {
				t.Errorf("hit with %q after its bytes were rewritten", got)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, new(strCache)) })
	}
}

// TestStrCacheModel checks, over random stores, that every hit gives the
// value last stored for its key, that recent stores hit, that the ring
// stays within its budget, and that it is allocated a few times only.
func TestStrCacheModel(t *testing.T) {
	for _, keys := range []int{8, 100, 2000} {
		t.Run(fmt.Sprintf("keys=%d", keys), func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, uint64(keys)))
			c := new(strCache)
			model := map[string]string{}
			rings, hits := 0, 0
			var last []byte
			for i := range 20000 {
				id := r.IntN(keys)
				k := fmt.Sprintf("key-%0*d", 8+id%60, id)
				got, ok := cacheGet(c, k)
				if ok {
					hits++
					if string(got) != model[k] {
						t.Fatalf("op %d: %q gave %q, last stored %q", i, k, got, model[k])
					}
					continue
				}
				v := fmt.Sprintf("%d:%s", i, strings.Repeat("v", r.IntN(600)))
				model[k] = v
				cachePut(c, k, v)
				if got, ok := cacheGet(c, k); !ok || string(got) != v {
					t.Fatalf("op %d: %q missed just after its store", i, k)
				}
				if len(c.ring) > strCacheBudget {
					t.Fatalf("ring of %d bytes, over the budget %d", len(c.ring), strCacheBudget)
				}
				if len(c.ring) > 0 && (last == nil || &c.ring[0] != &last[0]) {
					rings++
					last = c.ring
				}
			}
			if rings > 4 {
				t.Errorf("the ring was made %d times; 4 doublings reach the budget", rings)
			}
			if keys == 8 && hits < 15000 {
				t.Errorf("%d hits of 20000 with 8 keys", hits)
			}
		})
	}
}
