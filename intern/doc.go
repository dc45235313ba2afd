// Package intern gives each distinct header string one canonical [Handle], so
// that equality is a pointer comparison and a decoded field can reuse the
// canonical bytes instead of allocating its own copy.
//
// A user makes a [Table] with [New] and [Limits], and interns the strings
// worth it, as strings or byte slices, from any goroutine:
//
//	tab := intern.New(intern.Limits{})
//	h, ok := intern.Make(tab, nameBytes) // ok is false when a limit says no
//	if ok && h == other { ... }          // one pointer compare
//
// Give each peer a Table of its own (hpack.Decoder.SetInterner), so that
// one peer cannot fill it for the others.
//
// # Tiers
//
// Every string of the static tier (package staticdata) has a handle before
// any Table exists, whose Atom is the one [staticdata.Lookup] returns; every
// Table, a nil one included, answers from it first. Other strings go to a
// Table: a fixed-size, lock-free hash set that never resizes or evicts, so
// a handle stays valid for the table's life. When a string is too long or
// the table is full, it reports "not interned", which is not an error.
//
// # What to intern
//
// Intern strings of low cardinality, which repeat on every request: the
// values of content-type, te, grpc-encoding, user-agent and the like, and
// custom metadata names. Do not intern values unique per request or peer
// (request and trace IDs, timestamps, tokens, cookies): they would only
// fill the table.
//
// # Why the bounds
//
// An unbounded interner lets a peer exhaust memory by sending many distinct
// strings (CVE-2022-41717, against Go's HTTP/2 server). A Table is bounded
// in entries, bytes and string length; once full it stops allocating. It
// hashes with a random seed per table, so a peer cannot precompute
// collisions.
package intern
