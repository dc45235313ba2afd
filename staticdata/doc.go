// Package staticdata holds the tables that never change: the RFC 7541 static
// table, the RFC 7541 Huffman code in encode and multi-symbol decode form, and
// the gRPC well-known metadata keys and values.
//
// Every string of these tables is an [Atom] in [Atoms], the static tier that
// package intern answers from first. An atom carries its precomputed xxhash,
// the first static-table index at which it is a name, and its well-known key
// ID. Key ID k is the atom atoms[k], so a header batch can keep O(1) slots for
// :path, :authority, content-type, grpc-timeout and the rest.
//
// Everything here is computed by the generator in ../gen and written into the
// *_gen.go files; nothing is hashed or built at process start. Lookups from
// string and []byte ([Lookup], [LookupBytes], [LookupField], ...) use a perfect
// hash found by the generator and allocate nothing.
//
// To regenerate after changing gen/ or gen/data:
//
//	go generate ./staticdata
package staticdata

//go:generate go run ../gen -data ../gen/data -root ..
