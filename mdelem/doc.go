// Package mdelem holds metadata elements (header fields) and reusable header
// batches, in the manner of gRPC core's mdelem.
//
// A field's name and value are each a [Str], which records how its bytes are
// stored in a plain [Kind] tag:
//
//   - [Static]: an element of the static tier ([staticdata.KeyID.Atom] and
//     [staticdata.Lookup] give them);
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
// # Safety
//
// The unsafe code lives in the files named *_unsafe.go (build tag
// !purego): Str's two-word layout and its views of bytes (str_unsafe.go),
// From's reading of its generic arguments and BorrowString
// (source_unsafe.go), and Batch.Append's fast paths, which write fields
// and copy short strings in words without bounds checks
// (batch_append_unsafe.go). Each use carries a SAFETY comment with the
// invariant that makes it sound and the tests that guard it. Building
// with -tags purego replaces them with bounds-checked Go, under which the
// package does not import unsafe: Str then holds an atom pointer and a
// byte slice, and Append is appendSafe, the twin that the default build's
// tests compare Append with. The results are the same; under purego only
// BorrowString, Str.UnsafeString of plain bytes and Str.Bytes of an atom
// copy, which no safe Go can avoid, and a Field is not comparable with ==.
//
// [ValidateRequest] and [ParseTimeout] serve gRPC-style servers; [AppendXnet]
// and [AppendFromXnet] convert to and from x/net's hpack.HeaderField.
package mdelem
