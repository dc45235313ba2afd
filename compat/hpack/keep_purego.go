//go:build purego

package hpack

import "github.com/metapack/metapack/mdelem"

// keepString keeps nothing under -tags purego, where a view of s's bytes
// would be a copy, one more allocation per value: metapack's dynamic table
// copies the value itself, and a later indexed field makes its string
// anew.
func keepString(s string) mdelem.Str { return mdelem.Str{} }
