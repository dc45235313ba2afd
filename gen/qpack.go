package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"

	"github.com/metapack/metapack/internal/tabledef"
)

// pairHash is a collision-free hash of the QPACK static entries' (name atom
// ID, value atom ID) pairs into 1<<bits slots; emitQPACK writes it out as
// qpackSlot, the same formula.
type pairHash struct {
	bits   uint
	m0, m1 uint32
	slots  []uint8 // 1 + QPACK index per slot; 0 marks an empty slot
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
	return nil, fmt.Errorf("no perfect hash found for %d QPACK static entries", len(pairs))
}

// emitQPACK writes RFC 9204's static table and the pair hash over it.
func emitQPACK(b *bytes.Buffer, atoms []atom, idOf map[string]int, qtable []staticEntry) error {
	pairs := make([][2]int, len(qtable))
	seen := map[[2]int]bool{}
	for i, e := range qtable {
		pairs[i] = [2]int{idOf[e.name], idOf[e.value]}
		if seen[pairs[i]] {
			return fmt.Errorf("QPACK static entry %d repeats %q: %q", i, e.name, e.value)
		}
		seen[pairs[i]] = true
	}
	ph, err := findPairHash(pairs)
	if err != nil {
		return err
	}
	fmt.Fprintf(b, "// QPACKTableLen is the number of entries of the RFC 9204 static table.\nconst QPACKTableLen = %d\n\n", len(qtable))
	b.WriteString("// qpackTable is RFC 9204 Appendix A. QPACK indexes start at 0.\n")
	b.WriteString("var qpackTable = [QPACKTableLen]Entry{\n")
	for i, pr := range pairs {
		n, v := pr[0], pr[1]
		fmt.Fprintf(b, "\t{Name: &atoms[%d], Value: &atoms[%d], PairHash: %#016x, Size: %d}, // %d %s: %s\n",
			n, v, tabledef.PairHash(atoms[n].hash, atoms[v].hash), len(qtable[i].name)+len(qtable[i].value)+32, i, qtable[i].name, qtable[i].value)
	}
	b.WriteString("}\n\n")
	b.WriteString("// qpackSlot is the generator's perfect hash of the QPACK static entries'\n")
	b.WriteString("// name and value atom IDs. The result is below len(qpackSlots).\n")
	fmt.Fprintf(b, "func qpackSlot(name, value uint16) uint32 {\n\treturn (uint32(name)*%#x + uint32(value)*%#x) >> %d\n}\n\n", ph.m0, ph.m1, 32-ph.bits)
	b.WriteString("// qpackSlots maps a qpackSlot value to 1 + a QPACK static index; 0 marks an\n// empty slot.\n")
	fmt.Fprintf(b, "var qpackSlots = [%d]uint8{", len(ph.slots))
	for i, s := range ph.slots {
		if s != 0 {
			fmt.Fprintf(b, "%d: %d, ", i, s)
		}
	}
	b.WriteString("}\n")
	return nil
}
