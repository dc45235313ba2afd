//go:build race

package intern

const raceEnabled = true
