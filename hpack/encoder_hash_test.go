package hpack

import (
	"fmt"
	"github.com/metapack/metapack/internal/indexpolicy"
	"testing"
)

// TestValueHashReadsEveryByte: changing any one byte of a value, at any
// length up to 100, changes its hash, as does its length.
func TestValueHashReadsEveryByte(t *testing.T) {
	for n := 0; n <= 100; n++ {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('a' + i%26)
		}
		h := indexpolicy.ValueHash(string(b))
		if n > 0 && indexpolicy.ValueHash(string(b[:n-1])) == h {
			t.Errorf("len %d: the same hash as its prefix", n)
		}
		for i := range b {
			b[i] ^= 0x20
			if indexpolicy.ValueHash(string(b)) == h {
				t.Errorf("len %d: byte %d does not change the hash", n, i)
			}
			b[i] ^= 0x20
		}
	}
}

// TestFindFieldProbes: when many entries share a pair hash, findField
// compares at most maxPairProbes of them, newest first: a field further
// down the chain is not found (and is sent as a literal), and one within
// it is.
func TestFindFieldProbes(t *testing.T) {
	var tb encTable
	tb.setMax(1 << 16)
	const ph = 0x1234 // every entry gets this pair hash
	n := 3 * maxPairProbes
	for i := range n {
		v := fieldView{name: "x-collide", value: fmt.Sprintf("value-%02d", i)}
		tb.add(&v, indexpolicy.ValueHash(v.name), ph)
	}
	for i := range n {
		v := fieldView{name: "x-collide", value: fmt.Sprintf("value-%02d", i)}
		age, ok := tb.findField(ph, &v)
		within := n-1-i < maxPairProbes // the newest maxPairProbes
		if ok != within || ok && age != uint32(n-1-i) {
			t.Errorf("value %d: found %v at age %d, want found %v at age %d", i, ok, age, within, n-1-i)
		}
	}
}
