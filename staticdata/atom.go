package staticdata

import "github.com/metapack/metapack/internal/tier"

// Atom is one canonical header string: a string of the static tier, which
// [Lookup] and [KeyID.Atom] return, or a string that package intern
// interned. Compare atoms by pointer: two atoms of the static tier or of
// one intern.Table are the same pointer exactly when their strings are
// equal. An atom is read-only. A nil *Atom holds no string.
//
// Its methods, nil-safe: String, Key (KeyUnknown for other strings) and
// IsName, whether the string is a valid lowercase HTTP/2 field name
// (false for static-table values such as "/").
type Atom = tier.Atom

// KeyID identifies a well-known header key: every RFC 7541 static-table
// name and every gRPC well-known key, such as [KeyPath] or
// [KeyGrpcTimeout]. KeyUnknown (0) is "not a well-known key".
//
// Its methods: String returns the key's header name ("" for KeyUnknown
// and for an ID that names no key); Atom returns the atom of that name
// (the empty string's for KeyUnknown, nil for an ID that names no key).
type KeyID = tier.KeyID

// Lookup returns the static-tier atom whose string is s, a string or byte
// slice, or nil. It neither allocates nor keeps s.
func Lookup[T ~string | ~[]byte](s T) *Atom { return tier.Lookup(s) }
