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
// It suits code that turns fields into its own representation at once:
// the fields are not copied into a batch first.
func (d *Decoder) DecodeFragmentFunc(fn func(f mdelem.Field), frag []byte, last bool) error {
	if fn == nil {
		return d.DecodeFragment(nil, frag, last)
	}
	return d.decodeFunc(fn, false, frag, last)
}

// DecodeFragmentKeep is DecodeFragmentFunc for a caller that keeps the
// values it is given, such as one that makes a Go string of each. Each
// literal value that is not an atom is copied, before fn sees it, into
// memory that the decoder allocates for it and never writes again (a part
// of a 512-byte slab, or a slice of its own for a value over 64 bytes), and
// fn receives it as owned bytes: fn may keep them as they are
// (Str.UnsafeString views them) rather than copy them again. When the
// dynamic table indexes the field, the table keeps that copy too, rather
// than copying the value into its own memory, and a later indexed field
// passes it to fn again, as owned bytes. An empty value is owned bytes of
// length 0. A nil fn drops the fields, as a nil batch does.
//
// Unlike the other decoding methods, it allocates as it goes: the copies
// are the caller's. A value the caller keeps keeps its slab alive. The
// values the table indexes are cut from slabs of their own, so that the
// slabs the table keeps alive hold little but its entries' values.
// compat/hpack's Decoder decodes through it: the strings it makes for
// x/net's HeaderFields are the ones the table keeps.
func (d *Decoder) DecodeFragmentKeep(fn func(f mdelem.Field), frag []byte, last bool) error {
	if fn == nil {
		return d.DecodeFragment(nil, frag, last)
	}
	return d.decodeFunc(fn, true, frag, last)
}

// decodeFunc decodes frag with fn taking the fields, and with values
// copied for keeping when keep is set, for one call, after which the
// decoder holds no fn.
func (d *Decoder) decodeFunc(fn func(f mdelem.Field), keep bool, frag []byte, last bool) error {
	d.fn, d.keep = fn, keep
	defer func() { d.fn, d.keep = nil, false }()
	return d.DecodeFragment(nil, frag, last)
}
