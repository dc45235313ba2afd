// Package staticdata holds the tables that never change: the RFC 7541 static
// table, the RFC 7541 Huffman code in encode and multi-symbol decode form, and
// the gRPC well-known metadata keys and values.
//
// Every string of these tables is an [Atom] of the static tier, which
// package intern answers from first. An atom carries its precomputed xxhash,
// the first static-table index at which it is a name, and its well-known key
// ID. The tables themselves are unexported and cannot be changed from
// outside; they are read through [AtomByID], [KeyID.Atom], [Lookup] and the
// other lookups, [StaticEntry] and [HuffmanCode], which return atoms whose
// fields are read-only or copies. Key k's atom is the atom with ID k, so a
// header batch can keep O(1) slots for :path, :authority, content-type,
// grpc-timeout and the rest.
//
// Everything here is computed by the generator in ../gen and written into the
// *_gen.go files; nothing is hashed or built at process start. Lookups from
// string and []byte ([Lookup], [LookupBytes], [LookupField], ...) use a perfect
// hash found by the generator and allocate nothing.
//
// # Safety
//
// Package staticdata does not import unsafe, in any build. Its lookups take
// a string or a byte slice through one generic body ([LookupOf],
// [MayBeAtomOf]) that compares bytes with bounds-checked Go, so the
// byte-slice forms neither copy nor allocate. The build tag purego, which
// removes the unsafe code of the packages built on this one, changes
// nothing here. TestLookupAtGuard runs every lookup with its input against
// an unreadable page.
//
// To regenerate after changing gen/ or gen/data:
//
//	go generate ./staticdata
package staticdata

//go:generate go run ../gen -data ../gen/data -root ..
