//go:build race

package qpack

// raceEnabled: the race detector adds allocations, so allocation tests
// skip under it.
const raceEnabled = true
