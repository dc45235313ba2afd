//go:build !race

package intern

const raceEnabled = false
