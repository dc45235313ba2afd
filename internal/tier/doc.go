// Package tier is the static tier behind package staticdata: the atoms of
// every RFC 7541 static-table string and gRPC well-known key and value, the
// static table, and the perfect-hash lookups over them, with what only this
// module's packages need: the constructor package intern makes its records
// with, atoms by ID, the encoder's static-table lookups, and the filter in
// front of the lookups. staticdata.Atom is defined on [Atom]; the codec
// converts between the two pointer types at its API.
//
// Its tables are unexported and read through accessors. Everything in
// static_gen.go is written by ../../gen (run go generate ./staticdata).
// It does not import unsafe; TestLookupAtGuard runs every lookup with its
// input against an unreadable page.
package tier
