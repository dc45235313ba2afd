// Package tier is the static tier behind package staticdata: the atoms of
// every string of the RFC 7541 and RFC 9204 static tables and every gRPC
// well-known key and value, the two static tables, and the perfect-hash
// lookups over them, with what only this module's packages need: the
// constructor package intern makes its records with, atoms by ID, the
// encoders' static-table lookups, and the filter in front of the lookups. staticdata.Atom is defined on [Atom]; the codec
// converts between the two pointer types at its API.
//
// Its tables are unexported and read through accessors. Everything in
// static_gen.go is written by ../../gen (run go generate ./staticdata).
// It does not import unsafe; TestLookupAtGuard runs every lookup with its
// input against an unreadable page.
package tier
