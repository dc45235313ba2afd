// Package staticdata names the header strings every HTTP/2 and gRPC peer
// knows: the RFC 7541 static table's names and values and the gRPC
// well-known metadata keys and values. Each is an [Atom], one canonical
// copy of the string, and each well-known key has a [KeyID] constant.
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
//	if a := staticdata.Lookup(name); a != nil && a.Key() == staticdata.KeyGrpcTimeout {
//		...
//	}
//
// # Implementation
//
// The atoms, the static table and the lookups live in the module's
// internal/tier package, which the codec packages read directly; Atom and
// KeyID are its types. Everything there is computed by the generator in
// ../gen and written into *_gen.go files (the key constants here in
// keys_gen.go); nothing is hashed or built at process start. [Lookup] uses
// a perfect hash the generator found over the atoms' strings, then one
// comparison, so a miss costs no more than a hit. The hashes and table
// layouts the generator and the codec share are defined once, in
// internal/tabledef.
//
// Package staticdata does not import unsafe, in any build. Lookup takes a
// string or a byte slice through one generic body that compares bytes
// with bounds-checked Go, so the byte-slice form neither copies nor
// allocates. Every atom is read-only: its fields are unexported and the
// tables are reached only through accessors.
//
// To regenerate after changing gen/ or gen/data:
//
//	go generate ./staticdata
package staticdata

//go:generate go run ../gen -data ../gen/data -root ..
