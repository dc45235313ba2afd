// Package tier is the static tier behind package staticdata: the atoms of
// the RFC 7541 and RFC 9204 static tables and the gRPC well-known strings,
// the two tables, and their perfect-hash lookups. staticdata.Atom and
// staticdata.KeyID alias [Atom] and [KeyID]; their methods are the user's
// (nil-safe), and the codec's hot paths call plain functions such as [Str].
// static_gen.go is written by ../../gen (go generate ./staticdata). It does
// not import unsafe; TestLookupAtGuard runs every lookup at a guard page.
package tier
