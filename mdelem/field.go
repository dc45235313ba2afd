package mdelem

import (
	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/staticdata"
)

// Field is one header field.
//
// A field may be marked sensitive: it must never be indexed by an HPACK
// encoder (RFC 7541 §7.1), and a decoder marks fields that were sent as
// never-indexed. The mark travels in the Name's tag word, so a Field stays
// four words, which Go keeps in registers (see Str); a Name copied into
// another Field carries the mark along, and Str's methods ignore it.
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

// IsValid reports whether both the name and the value hold a string (see
// Str.IsValid). Batch.Append rejects a field that is not valid, and an
// encoder given one field at a time must too.
func (f Field) IsValid() bool { return f.Name.IsValid() && f.Value.IsValid() }

// Key returns the well-known key ID of the field's name. A batch turns
// every well-known name into its atom, so for a field taken from a batch
// this is exact; for other fields a name given as bytes gives KeyUnknown.
// It is always KeyUnknown or a well-known key.
func (f Field) Key() staticdata.KeyID {
	if a := f.Name.Atom(); a != nil && (*tier.Atom)(a).Key() < tier.NumKeys {
		return staticdata.KeyID((*tier.Atom)(a).Key())
	}
	return staticdata.KeyUnknown
}

// Size returns the field's size as RFC 7541 §4.1 and RFC 9113 count it:
// name length + value length + 32.
func (f Field) Size() int { return f.Name.Len() + f.Value.Len() + 32 }

// IsPseudo reports whether the field's name starts with ':'.
func (f Field) IsPseudo() bool {
	if a := f.Name.Atom(); a != nil {
		s := (*tier.Atom)(a).String()
		return len(s) > 0 && s[0] == ':'
	}
	b := f.Name.bytes()
	return len(b) > 0 && b[0] == ':'
}

// String returns "name: value" for debugging.
func (f Field) String() string {
	s := f.Name.String() + ": " + f.Value.String()
	if f.Sensitive() {
		s += " (sensitive)"
	}
	return s
}
