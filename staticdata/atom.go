package staticdata

import "github.com/metapack/metapack/internal/tier"

// Atom is one canonical header string: a string of the static tier, which
// [Lookup] and [KeyID.Atom] return, or a string that package intern
// interned. Compare atoms by pointer: two atoms of the static tier or of
// one intern.Table are the same pointer exactly when their strings are
// equal. An atom is read-only. A nil *Atom holds no string.
type Atom tier.Atom

// String returns the atom's string, or "" for a nil atom.
func (a *Atom) String() string {
	if a == nil {
		return ""
	}
	return (*tier.Atom)(a).String()
}

// Key returns the atom's well-known key ID, or KeyUnknown, also for a nil
// atom.
func (a *Atom) Key() KeyID {
	if a == nil {
		return KeyUnknown
	}
	return KeyID((*tier.Atom)(a).Key())
}

// IsName reports whether the atom's string is a valid lowercase HTTP/2
// field name: a token, or a ':' and a token for a pseudo-header. Values
// of the static table such as "/", "" or "gzip, deflate" are not names;
// every well-known key is. It reports false for a nil atom.
func (a *Atom) IsName() bool { return a != nil && (*tier.Atom)(a).IsName() }

// KeyID identifies a well-known header key: every RFC 7541 static-table
// name and every gRPC well-known key, such as [KeyPath] or
// [KeyGrpcTimeout]. KeyUnknown (0) is "not a well-known key".
type KeyID uint8

// String returns the key's header name, or "" for KeyUnknown and for an
// ID that names no key.
func (k KeyID) String() string { return k.Atom().String() }

// Atom returns the atom of the key's header name; the empty string's for
// KeyUnknown, and nil for an ID that names no key.
func (k KeyID) Atom() *Atom {
	if k >= tier.NumKeys {
		return nil
	}
	return (*Atom)(tier.ByID(int(k)))
}

// Lookup returns the static-tier atom whose string is s, or nil: the atom
// of a static-table name or value, or of a gRPC well-known key or value. s
// may be a string or a byte slice; Lookup neither allocates nor keeps it.
func Lookup[T ~string | ~[]byte](s T) *Atom { return (*Atom)(tier.Lookup(s)) }
