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
	if d.callUserFn == nil {
		d.callUserFn = func(f mdelem.Field) mdelem.Str {
			d.userFn(f)
			return mdelem.Str{}
		}
	}
	d.userFn = fn
	return d.decodeFunc(d.callUserFn, frag, last)
}

// DecodeFragmentKeep is DecodeFragmentFunc for a caller that makes its
// own immutable copy of each value it is given, such as a Go string, and
// returns it from fn as owned bytes (mdelem.Owned, whose bytes nobody
// changes afterwards). For a field that the dynamic table indexes, the
// table then keeps that copy rather than copying the value into its own
// memory, and a later indexed field passes it to fn again, as owned bytes:
// the caller can take it back as it is (Str.UnsafeString), with no new
// copy. A returned Str that is not owned bytes equal to the value, such
// as the zero Str, is ignored, and the table copies the value as for
// DecodeFragmentFunc. fn must not change the bytes it returned
// afterwards, as for any owned bytes: the table sends them on as the
// value of later indexed fields.
//
// compat/hpack's Decoder decodes through it: the strings it makes for
// x/net's HeaderFields are the ones the table keeps.
func (d *Decoder) DecodeFragmentKeep(fn func(f mdelem.Field) mdelem.Str, frag []byte, last bool) error {
	if fn == nil {
		return d.DecodeFragment(nil, frag, last)
	}
	return d.decodeFunc(fn, frag, last)
}

// decodeFunc decodes frag with fn taking the fields, for one call, after
// which the decoder holds neither fn nor DecodeFragmentFunc's.
func (d *Decoder) decodeFunc(fn func(f mdelem.Field) mdelem.Str, frag []byte, last bool) error {
	d.fn = fn
	defer func() { d.fn, d.userFn = nil, nil }()
	return d.DecodeFragment(nil, frag, last)
}

// kept reports whether the dynamic table may keep s, which fn returned
// for value, in place of a copy of value: owned bytes equal to value's.
// The compare costs a read of bytes that fn has just copied, and keeps a
// careless fn from putting into the table a value the peer did not send.
func kept(s, value mdelem.Str) bool {
	return s.Kind() == mdelem.KindOwned && s.Len() == value.Len() &&
		string(s.UnsafeBytes()) == string(value.UnsafeBytes())
}
