//go:build race

package hpack

// raceEnabled is set when the tests run under the race detector.
const raceEnabled = true
