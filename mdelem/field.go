package mdelem

import "github.com/metapack/metapack/internal/tabledef"

// Field is one header field.
//
// A field marked sensitive must never be indexed by an HPACK encoder (RFC
// 7541 §7.1); a decoder marks fields sent as never-indexed. The mark goes
// with the Name, and Str's methods ignore it. A Field is comparable with
// == in the default build only (see Str).
type Field struct {
	Name, Value Str
}

// Sensitive reports whether f must never be indexed (RFC 7541 §7.1).
func (f Field) Sensitive() bool { return f.Name.tag&neverIndexBit != 0 }

// WithSensitive returns f marked sensitive when on is true, unmarked
// otherwise.
func (f Field) WithSensitive(on bool) Field {
	f.Name.tag &^= neverIndexBit
	if on {
		f.Name.tag |= neverIndexBit
	}
	return f
}

// Size returns the field's size as RFC 7541 §4.1 and RFC 9113 count it:
// name length + value length + 32.
func (f Field) Size() int { return f.Name.Len() + f.Value.Len() + tabledef.FieldOverhead }

// String returns "name: value" for debugging.
func (f Field) String() string {
	s := f.Name.String() + ": " + f.Value.String()
	if f.Sensitive() {
		s += " (sensitive)"
	}
	return s
}
