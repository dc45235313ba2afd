package hpack

import (
	mhpack "github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/mdelem"
)

// decodeKeep decodes frag with metapack's DecodeFragmentFunc, which copies
// each literal value into memory of its own and passes it on as owned
// bytes; field makes the value's string as a view of them
// (Str.UnsafeString), with no copy of its own, and the dynamic table
// keeps the same bytes, so that a later indexed field comes back as the
// same string. Under -tags purego, Str.UnsafeString copies instead, and
// the table keeps its own copy of each value.
//
// SAFETY: a string must never change. DecodeFragmentFunc writes each
// copy once, before fn sees it, and never again: its slabs are only ever
// cut forward, and the table and the batches only read kept bytes, within
// their length. Guarded by TestFieldViewsKeptBytesAtGuard (the views of
// bytes at guard pages), TestEmittedStringsNeverChange and
// TestIndexedFieldReusesString (both builds), TestDecodeFragmentFuncSlabs,
// TestDecodeFragmentFuncAtGuard and FuzzDecodeFunc.
func decodeKeep(d *mhpack.Decoder, fn func(mdelem.Field), frag []byte, last bool) error {
	return d.DecodeFragmentFunc(fn, frag, last)
}
