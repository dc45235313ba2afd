// Package staticdata names the header strings every HTTP/2, HTTP/3 and
// gRPC peer knows: the names and values of the RFC 7541 (HPACK) and RFC
// 9204 (QPACK) static tables and the gRPC well-known metadata keys and
// values. Each is an [Atom], one canonical copy of the string, and each
// HPACK static-table name and gRPC well-known key has a [KeyID] constant.
//
// A user does two things with it:
//
//   - look a header name or value up: [Lookup] takes a string or a byte
//     slice and returns its atom, or nil when the string is not one of
//     these, without allocating;
//   - name a well-known key: mdelem's Batch.Get(staticdata.KeyPath) finds
//     the :path field of a decoded block in O(1), k.String() is the key's
//     header name and k.Atom() its atom, which package mdelem takes as a
//     field's name without copying.
//
// An atom's Key method gives the well-known key of a looked-up name, so a
// header name that arrives as bytes turns into a key with one call:
//
//	if a := staticdata.Lookup(name); a.Key() == staticdata.KeyGrpcTimeout {
//		...
//	}
//
// The static tier holds values as well as names: Lookup("/") is the atom
// of :path's value. [Atom.IsName] tells a valid field name from such a
// value.
//
// The tables are computed by the generator in ../gen and written into
// *_gen.go files; nothing is hashed or built at process start. To
// regenerate after changing gen/ or gen/data:
//
//	go generate ./staticdata
package staticdata

//go:generate go run ../gen -data ../gen/data -root ..
