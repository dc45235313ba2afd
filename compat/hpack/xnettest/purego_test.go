//go:build purego

package xnettest

// Under -tags purego the ported tests run against the drop-in's pure-Go
// build too.
func init() { childBuildFlags = append(childBuildFlags, "-tags=purego") }
