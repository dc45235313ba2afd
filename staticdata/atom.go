package staticdata

import "github.com/metapack/metapack/internal/tier"

// Atom is one canonical header string: a string of the static tier, which
// [Lookup] and [KeyID.Atom] return, or a string that package intern
// interned. Compare atoms by pointer: two atoms of the static tier or of
// one intern.Table are the same pointer exactly when their strings are
// equal. An atom is read-only. A nil *Atom holds no string.
//
// Its methods: String returns the atom's string ("" for nil); Key returns
// its well-known key ID (KeyUnknown for nil and for other strings);
// IsName reports whether the string is a valid lowercase HTTP/2 field
// name, a token or ':' and a token (false for nil, and for static-table
// values such as "/" or "gzip, deflate").
type Atom = tier.Atom

// KeyID identifies a well-known header key: every RFC 7541 static-table
// name and every gRPC well-known key, such as [KeyPath] or
// [KeyGrpcTimeout]. KeyUnknown (0) is "not a well-known key".
//
// Its methods: String returns the key's header name ("" for KeyUnknown
// and for an ID that names no key); Atom returns the atom of that name
// (the empty string's for KeyUnknown, nil for an ID that names no key).
type KeyID = tier.KeyID

// Lookup returns the static-tier atom whose string is s, or nil: the atom
// of an HPACK or QPACK static-table name or value, or of a gRPC well-known
// key or value. s
// may be a string or a byte slice; Lookup neither allocates nor keeps it.
func Lookup[T ~string | ~[]byte](s T) *Atom { return tier.Lookup(s) }
