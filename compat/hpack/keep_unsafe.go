//go:build !purego

package hpack

import "github.com/metapack/metapack/mdelem"

// keepString returns s as owned bytes for metapack's dynamic table to keep
// (see Decoder.field). mdelem.BorrowString makes the view; under -tags
// purego it would copy, and keep_purego.go keeps nothing instead.
//
// SAFETY: the view is s's own bytes, which are immutable, so no one
// changes them afterwards, as Owned requires; the table and the batches
// only read kept bytes, within their length. Guarded by
// TestIndexedFieldReusesString (both builds), TestDecodeFragmentKeepAtGuard
// and FuzzDecodeKeep.
func keepString(s string) mdelem.Str {
	return mdelem.StrOf(mdelem.Owned(mdelem.BorrowString(s)))
}
