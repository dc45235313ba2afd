package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"

	"github.com/metapack/metapack/internal/tabledef"
)

// pairHash is a collision-free hash of a static table's pair keys, (name
// atom ID)<<16 | (value atom ID), into 1<<bits slots. emitTable writes it out
// as a function of the same formula.
type pairHash struct {
	bits  uint
	m     uint32
	slots []uint8 // 1 + the position in the table per slot; 0 marks an empty slot
}

func (p *pairHash) of(key uint32) uint32 { return key * p.m >> (32 - p.bits) }

// findPairHash searches multipliers with a fixed-seed generator, from the
// smallest table that holds the keys at a load factor of at most one half.
func findPairHash(keys []uint32) (*pairHash, error) {
	rng := rand.New(rand.NewPCG(9204, 7541))
	bits := uint(1)
	for 1<<bits < 2*len(keys) {
		bits++
	}
	for ; bits <= 12; bits++ {
	try:
		for range 100000 {
			p := &pairHash{bits: bits, m: rng.Uint32() | 1, slots: make([]uint8, 1<<bits)}
			for i, k := range keys {
				slot := p.of(k)
				if p.slots[slot] != 0 {
					continue try
				}
				p.slots[slot] = uint8(i + 1)
			}
			return p, nil
		}
	}
	return nil, fmt.Errorf("no perfect hash found for %d static entries", len(keys))
}

// emitTable writes the entries of a static table and the pair hash over
// them, named after prefix: prefixSlot, prefixSlots and prefixKeys. first is
// the index of the table's first entry.
func emitTable(b *bytes.Buffer, atoms []atom, idOf map[string]int, table []staticEntry, prefix string, first int) error {
	keys := make([]uint32, len(table))
	seen := map[uint32]bool{}
	for i, e := range table {
		n, v := idOf[e.name], idOf[e.value]
		keys[i] = uint32(n)<<16 | uint32(v)
		if seen[keys[i]] {
			return fmt.Errorf("%s static entry %d repeats %q: %q", prefix, i+first, e.name, e.value)
		}
		seen[keys[i]] = true
		fmt.Fprintf(b, "\t{Name: &atoms[%d], Value: &atoms[%d], PairHash: %#016x, Size: %d}, // %d %s: %s\n",
			n, v, tabledef.PairHash(atoms[n].hash, atoms[v].hash), len(e.name)+len(e.value)+32, i+first, e.name, e.value)
	}
	b.WriteString("}\n\n")
	ph, err := findPairHash(keys)
	if err != nil {
		return err
	}
	fmt.Fprintf(b, "// %sSlot is the generator's perfect hash of the %s static entries' keys,\n", prefix, prefix)
	fmt.Fprintf(b, "// (name atom ID)<<16 | (value atom ID). The result is below len(%sSlots).\n", prefix)
	fmt.Fprintf(b, "func %sSlot(key uint32) uint32 { return key * %#x >> %d }\n\n", prefix, ph.m, 32-ph.bits)
	what := "1 + a static index"
	if first == 1 {
		what = "a static index"
	}
	fmt.Fprintf(b, "// %sSlots maps a %sSlot value to %s; 0 marks an empty slot.\n", prefix, prefix, what)
	fmt.Fprintf(b, "var %sSlots = [%d]uint8{", prefix, len(ph.slots))
	for i, s := range ph.slots {
		if s != 0 {
			fmt.Fprintf(b, "%d: %d, ", i, s)
		}
	}
	b.WriteString("}\n\n")
	n := 1
	for n < len(table)+first+1 {
		n *= 2
	}
	fmt.Fprintf(b, "// %sKeys[i] is the key of static entry i; no pair has the key of\n// an index past the table.\n", prefix)
	fmt.Fprintf(b, "var %sKeys = [%d]uint32{", prefix, n)
	for i := range n {
		if i < first || i >= len(table)+first {
			b.WriteString("0xffffffff, ")
		} else {
			fmt.Fprintf(b, "%#x, ", keys[i-first])
		}
	}
	b.WriteString("}\n\n")
	return nil
}
