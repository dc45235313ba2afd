package main

import (
	"fmt"
	"math/rand/v2"
)

// perfectHash is a collision-free hash of the non-empty atoms into a table of
// 1<<bits slots. The hash reads the length and four bytes of the string:
//
//	((len*m0 + s[0]*m1 + s[len-1]*m2 + s[len/2]*m3 + s[len/4]*m4) mod 2^32) >> (32-bits)
type perfectHash struct {
	bits               uint
	m0, m1, m2, m3, m4 uint32
	slots              []uint16 // atom ID per slot; 0 marks an empty slot
}

func (p *perfectHash) of(s string) uint32 {
	n := len(s)
	h := uint32(n)*p.m0 + uint32(s[0])*p.m1 + uint32(s[n-1])*p.m2 + uint32(s[n/2])*p.m3 + uint32(s[n/4])*p.m4
	return h >> (32 - p.bits)
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
