package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"

	"github.com/metapack/metapack/internal/tabledef"
)

// pairHash is a collision-free hash of a static table's (name atom ID,
// value atom ID) pairs into 1<<bits slots. emitPairHash writes it out as a
// function of the same formula.
type pairHash struct {
	bits   uint
	m0, m1 uint32
	slots  []uint8 // 1 + the position in the table per slot; 0 marks an empty slot
}

func (p *pairHash) of(name, value int) uint32 {
	return (uint32(name)*p.m0 + uint32(value)*p.m1) >> (32 - p.bits)
}

// findPairHash searches multipliers with a fixed-seed generator, from the
// smallest table that holds the pairs at a load factor of at most one half.
func findPairHash(pairs [][2]int) (*pairHash, error) {
	rng := rand.New(rand.NewPCG(9204, 7541))
	bits := uint(1)
	for 1<<bits < 2*len(pairs) {
		bits++
	}
	for ; bits <= 12; bits++ {
	try:
		for range 100000 {
			p := &pairHash{bits: bits, m0: rng.Uint32() | 1, m1: rng.Uint32() | 1, slots: make([]uint8, 1<<bits)}
			for i, pr := range pairs {
				slot := p.of(pr[0], pr[1])
				if p.slots[slot] != 0 {
					continue try
				}
				p.slots[slot] = uint8(i + 1)
			}
			return p, nil
		}
	}
	return nil, fmt.Errorf("no perfect hash found for %d static entries", len(pairs))
}

// emitTable writes the entries of a static table and the pair hash over
// them, named after prefix: prefixSlot and prefixSlots. first is the index
// of the table's first entry.
func emitTable(b *bytes.Buffer, atoms []atom, idOf map[string]int, table []staticEntry, prefix string, first int) error {
	pairs := make([][2]int, len(table))
	seen := map[[2]int]bool{}
	for i, e := range table {
		pairs[i] = [2]int{idOf[e.name], idOf[e.value]}
		if seen[pairs[i]] {
			return fmt.Errorf("%s static entry %d repeats %q: %q", prefix, i+first, e.name, e.value)
		}
		seen[pairs[i]] = true
		n, v := pairs[i][0], pairs[i][1]
		fmt.Fprintf(b, "\t{Name: &atoms[%d], Value: &atoms[%d], PairHash: %#016x, Size: %d}, // %d %s: %s\n",
			n, v, tabledef.PairHash(atoms[n].hash, atoms[v].hash), len(e.name)+len(e.value)+32, i+first, e.name, e.value)
	}
	b.WriteString("}\n\n")
	ph, err := findPairHash(pairs)
	if err != nil {
		return err
	}
	fmt.Fprintf(b, "// %sSlot is the generator's perfect hash of the %s static entries'\n", prefix, prefix)
	fmt.Fprintf(b, "// name and value atom IDs. The result is below len(%sSlots).\n", prefix)
	fmt.Fprintf(b, "func %sSlot(name, value uint16) uint32 {\n\treturn (uint32(name)*%#x + uint32(value)*%#x) >> %d\n}\n\n", prefix, ph.m0, ph.m1, 32-ph.bits)
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
	return nil
}
