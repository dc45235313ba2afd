package mdelem

import "github.com/metapack/metapack/staticdata"

// Field is one header field.
type Field struct {
	Name, Value Str
	// Sensitive marks a field that must never be indexed by an HPACK
	// encoder (RFC 7541 §7.1), and that was sent as never-indexed.
	Sensitive bool
	// Field has seven scalar parts, so Go passes and returns it in
	// registers, receiver included; keep it so.
}

// Key returns the well-known key ID of the field's name. A batch turns
// every well-known name into its atom, so for a field taken from a batch
// this is exact; for other fields a name given as bytes gives KeyUnknown.
func (f Field) Key() staticdata.KeyID {
	if a := f.Name.Atom(); a != nil {
		return a.Key
	}
	return staticdata.KeyUnknown
}

// Size returns the field's size as RFC 7541 §4.1 and RFC 9113 count it:
// name length + value length + 32.
func (f Field) Size() int { return f.Name.Len() + f.Value.Len() + 32 }

// IsPseudo reports whether the field's name starts with ':'.
func (f Field) IsPseudo() bool {
	s := f.Name.UnsafeString()
	return len(s) > 0 && s[0] == ':'
}

// String returns "name: value" for debugging.
func (f Field) String() string {
	s := f.Name.String() + ": " + f.Value.String()
	if f.Sensitive {
		s += " (sensitive)"
	}
	return s
}
