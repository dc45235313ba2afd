// Package tier is the static tier behind package staticdata: the atoms of
// every string of the RFC 7541 and RFC 9204 static tables and every gRPC
// well-known key and value, the two static tables, and the perfect-hash
// lookups over them, with what only this module's packages need: the
// constructor package intern makes its records with, atoms by ID, the
// encoders' static-table lookups, and the filter in front of the lookups.
// staticdata.Atom and staticdata.KeyID are aliases of [Atom] and [KeyID],
// so there is one atom type; the methods on them are the user's
// (nil-safe), and the codec's hot paths call the plain functions [Str],
// [Len], [Hash], [IsStatic], [NameIndex] and [KeyOf].
//
// Its tables are unexported and read through accessors. Everything in
// static_gen.go is written by ../../gen (run go generate ./staticdata).
// It does not import unsafe; TestLookupAtGuard runs every lookup with its
// input against an unreadable page.
package tier
