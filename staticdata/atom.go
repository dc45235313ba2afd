package staticdata

import "github.com/metapack/metapack/internal/tier"

// Atom is one canonical header string: a string of the static tier, which
// [Lookup] and a KeyID's Atom method return, or a string that package intern
// interned. Compare atoms by pointer: two atoms of the static tier or of
// one intern.Table are the same pointer exactly when their strings are
// equal. An atom is read-only. Its methods:
//
//   - String returns the atom's string, and Len its length.
//   - Key returns the string's well-known key ID, or KeyUnknown.
//   - IsStatic reports whether the atom is in the static tier.
//   - NameIndex returns the first RFC 7541 static-table index whose name is
//     the string, or 0.
//   - Hash returns xxhash.Sum64String of the string, unseeded.
type Atom = tier.Atom

// KeyID identifies a well-known header key: every RFC 7541 static-table
// name and every gRPC well-known key, such as [KeyPath] or
// [KeyGrpcTimeout]. KeyUnknown (0) is "not a well-known key". Its methods:
// k.String() is the key's header name and k.Atom() its atom; both are ""
// and nil for an ID not below NumKeys.
type KeyID = tier.KeyID

// NumKeys is one more than the largest key ID: an array of NumKeys slots
// has one for every key.
const NumKeys = tier.NumKeys

// Lookup returns the static-tier atom whose string is s, or nil: the atom
// of a static-table name or value, or of a gRPC well-known key or value. s
// may be a string or a byte slice; Lookup neither allocates nor keeps it.
func Lookup[T ~string | ~[]byte](s T) *Atom { return tier.Lookup(s) }
