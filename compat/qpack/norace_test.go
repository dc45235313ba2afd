//go:build !race

package qpack

const raceEnabled = false
