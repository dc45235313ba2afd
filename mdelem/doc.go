// Package mdelem holds metadata elements (header fields) and reusable header
// batches, in the manner of gRPC core's mdelem.
//
// A field's name and value are each a [Str], which records how its bytes are
// stored in a plain [Kind] tag:
//
//   - [Static]: an element of the static tier ([staticdata.Atoms]);
//   - [Interned]: an [intern.Handle];
//   - [Owned]: a byte slice the caller gives up, adopted without copying;
//   - [Borrowed]: bytes the caller keeps, copied into the batch's arena.
//
// The generic constructor [From] picks the storage for each side at compile
// time: it is small enough to be inlined at every call site, where Go folds
// its type switches away (a test proves it stays inlinable). A [Batch] then
// skips the work the tag proves unnecessary: no copy for static, interned or
// owned bytes, no hashing or key lookup for static or interned names, and
// pointer comparison instead of byte comparison where both sides are atoms.
// Bytes of other kinds take the generic path, which stays correct.
//
// A [Str] is two words and a [Field] four: the tag word packs the length, the
// kind, a bit set for the kinds that may pin memory the batch does not own
// (interned and owned) and, in a field's name, the never-index mark
// ([Field.Sensitive], [Field.WithSensitive]). A four-word field stays in registers where Go
// passes and builds it, instead of being copied through memory.
//
// A Batch is an ordered header list with O(1) access to well-known keys
// (:path, :authority, content-type, grpc-timeout, ...) through slots indexed
// by [staticdata.KeyID]. Reset keeps its capacity and arena, so a batch
// reused across requests allocates nothing in steady state.
//
// [ValidateRequest] and [ParseTimeout] serve gRPC-style servers; [AppendXnet]
// and [AppendFromXnet] convert to and from x/net's hpack.HeaderField.
package mdelem
