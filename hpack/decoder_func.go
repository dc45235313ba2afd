package hpack

import "github.com/metapack/metapack/mdelem"

// DecodeFragmentFunc is DecodeFragment with fn in place of a batch: fn is
// called with each field as soon as it is decoded, in order, before
// DecodeFragmentFunc returns. The field's Strs are views of the
// decoder's buffers and of frag, valid only during the call: fn copies
// what it keeps (Str.String does). Limits, errors and the dynamic table
// are as for DecodeFragment; a field over a limit is not passed to fn. A
// nil fn drops the fields, as a nil batch does.
//
// It suits code that turns fields into its own representation at once,
// such as compat/hpack's Decoder, which makes x/net's HeaderFields of
// them: the fields are not copied into a batch first.
func (d *Decoder) DecodeFragmentFunc(fn func(f mdelem.Field), frag []byte, last bool) error {
	d.fn = fn
	defer func() { d.fn = nil }()
	return d.DecodeFragment(nil, frag, last)
}
