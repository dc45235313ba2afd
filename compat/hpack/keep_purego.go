//go:build purego

package hpack

import (
	mhpack "github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/mdelem"
)

// decodeKeep decodes with DecodeFragmentFunc under -tags purego, where a
// string cannot view bytes without copying them: field makes each value's
// string from a view of metapack's buffers, and the dynamic table copies
// values into its own memory.
func decodeKeep(d *mhpack.Decoder, fn func(mdelem.Field), frag []byte, last bool) error {
	return d.DecodeFragmentFunc(fn, frag, last)
}
