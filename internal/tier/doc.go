// Package tier is the static tier behind package staticdata: the atoms of
// every RFC 7541 static-table string and gRPC well-known key and value, the
// static table itself, and the perfect-hash lookups over them, together
// with what only this module's own packages need: the constructor package
// intern makes its records with, atoms by ID, the static-table lookups the
// encoder uses, and the filter in front of the lookups.
//
// Its tables are unexported and read through accessors, which return
// read-only atoms or copies. Everything in static_gen.go is written by
// ../../gen (run go generate ./staticdata); nothing is hashed or built at
// process start.
//
// # Safety
//
// Package tier does not import unsafe, in any build. Its lookups take a
// string or a byte slice through one generic body that compares bytes with
// bounds-checked Go, so the byte-slice forms neither copy nor allocate.
// TestLookupAtGuard runs every lookup with its input against an unreadable
// page.
package tier
