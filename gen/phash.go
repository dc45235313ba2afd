package main

import (
	"fmt"
	"math/rand/v2"

	"github.com/metapack/metapack/internal/tabledef"
)

// perfectHash is a collision-free hash of the non-empty atoms into a table of
// 1<<bits slots: tabledef.PerfectHash with multipliers m0 to m4.
type perfectHash struct {
	bits               uint
	m0, m1, m2, m3, m4 uint32
	slots              []uint16 // atom ID per slot; 0 marks an empty slot
}

func (p *perfectHash) of(s string) uint32 {
	return tabledef.PerfectHash(s, p.bits, p.m0, p.m1, p.m2, p.m3, p.m4)
}

// findPerfectHash searches multipliers with a fixed-seed generator, so the
// output is the same on every run, starting at the smallest table that can
// hold the atoms at a load factor of at most one quarter.
func findPerfectHash(atoms []atom) (*perfectHash, error) {
	rng := rand.New(rand.NewPCG(7541, 9113))
	bits := uint(1)
	for 1<<bits < 4*len(atoms) {
		bits++
	}
	for ; bits <= 14; bits++ {
		for try := 0; try < 20000; try++ {
			p := &perfectHash{
				bits: bits,
				m0:   rng.Uint32() | 1, m1: rng.Uint32() | 1,
				m2: rng.Uint32() | 1, m3: rng.Uint32() | 1, m4: rng.Uint32() | 1,
				slots: make([]uint16, 1<<bits),
			}
			if p.place(atoms) {
				return p, nil
			}
		}
	}
	return nil, fmt.Errorf("no perfect hash found for %d atoms", len(atoms))
}

func (p *perfectHash) place(atoms []atom) bool {
	for id := 1; id < len(atoms); id++ {
		slot := p.of(atoms[id].s)
		if p.slots[slot] != 0 {
			return false
		}
		p.slots[slot] = uint16(id)
	}
	return true
}
