// Package intern gives each distinct header string one canonical [Handle], so
// that equality is a pointer comparison and a decoded field can reuse the
// canonical bytes instead of allocating its own copy.
//
// A user makes a [Table] with [New] and [Limits] (by the module's
// convention for limits, a negative field is no limit, and zero fields take the
// defaults), and interns the strings worth it, as strings or as byte
// slices, from any goroutine:
//
//	tab := intern.New(intern.Limits{})
//	h, ok := intern.Make(tab, nameBytes) // ok is false when a limit says no
//	if ok && h == other { ... }          // one pointer compare
//
// A Decoder of package hpack takes a Table of its own for the strings of
// one peer (hpack.Decoder.SetInterner); a table is never shared between
// peers, so one peer cannot fill it for the others.
//
// # Tiers
//
// Every string of the static tier (package staticdata: the RFC 7541 static
// table and the gRPC well-known metadata) has a handle before any Table
// exists: its Atom is the one [staticdata.Lookup] returns. Every Table, a
// nil one included, answers from this tier first, so interning ":path" in
// any table gives the handle whose Atom is staticdata.KeyPath.Atom().
//
// Other strings go to a Table: a fixed-size, lock-free hash set with
// explicit bounds. It never resizes and never evicts, so a handle stays
// valid and canonical for the table's whole life. When a string is too
// long, or the table has no room left, the table reports "not interned"
// and the caller keeps its own copy. That is not an error.
//
// # What to intern
//
// Intern header names and values known to have low cardinality: the values of
// content-type, te, grpc-encoding, user-agent and the like, and the names of
// custom metadata keys. These repeat on every request, so a small table
// catches nearly all of them and saves an allocation and a byte comparison
// each time.
//
// Do not intern values that are unique per request or per peer: request IDs,
// trace and span IDs, timestamps, authorization tokens, cookies, paths with
// identifiers in them. They would never be hit again and would only fill the
// table, leaving no room for the strings worth interning.
//
// # Why the bounds
//
// An interner that grows without bound lets a peer exhaust the process's
// memory simply by sending many distinct header names or values: each one is
// kept forever. CVE-2022-41717 was such an attack on Go's HTTP/2 server, whose
// header key canonicalization cache grew without limit. A Table is bounded in
// entries, in bytes and in string length; once full it stops allocating, and
// misses cost only a hash and a probe. It hashes with hash/maphash and a
// random seed per table, so a peer cannot precompute strings that collide.
package intern
