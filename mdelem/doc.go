// Package mdelem holds header fields and reusable header batches, the
// lists that package hpack decodes into and encodes from, in the manner of
// gRPC core's mdelem.
//
// A user builds a [Batch] with [NewBatch], appends fields to it, reads
// them back, and Resets it for the next header list, which allocates
// nothing once the batch has grown to its workload:
//
//	b := mdelem.NewBatch(16, 512)
//	b.Append(mdelem.FromStrings(":path", "/helloworld.Greeter/SayHello"))
//	b.Append(mdelem.FromStrings("x-request-id", id))
//	if f, ok := b.Get(staticdata.KeyPath); ok { ... }   // O(1) for well-known keys
//	f, ok := b.GetString("x-request-id")                // any name
//	for i, f := range b.All() { ... }
//	b.Reset()
//
// [FromStrings] is the one call for the common case: each side becomes
// the static-tier atom of its string when there is one, else bytes the
// batch copies. [Batch.Err] reports a field that Append rejected (see
// Valid parts). Field and Str give a field's parts as strings, atoms or
// bytes; names starting with Unsafe hand out views of memory the batch or
// an atom shares, which must not be written.
//
// # Storage kinds
//
// A field's name and value are each a [Str], which records how its bytes are
// stored in a plain [Kind] tag:
//
//   - [Static]: an element of the static tier ([staticdata.KeyID.Atom] and
//     [staticdata.Lookup] give them);
//   - [Interned]: an [intern.Handle];
//   - [Owned]: a byte slice the caller gives up, adopted without copying;
//   - [Borrowed]: bytes the caller keeps, copied into the batch's arena
//     ([BorrowString] gives a string's bytes as Borrowed without copying).
//
// Where the kinds are known at compile time, the generic constructor
// [From] (a field) and [StrOf] (one side, for decoders that build a name
// and a value apart) take them without looking anything up: each is small
// enough to be inlined at every call site, where Go folds its type
// switches away (a test proves they stay inlinable). A [Batch] then
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
// # Valid parts
//
// A field is built only from parts that hold a string. The zero Str, a
// nil *staticdata.Atom (staticdata.Lookup's answer for a string with no
// atom) and the zero intern.Handle (intern.Make's when it does not intern)
// hold none: [Str.IsValid] reports false and [Str.Kind] KindInvalid, and
// [Batch.Append] does not append a field with such a side, neither as an
// empty string nor with a panic. It records the first one since Reset in
// [Batch.Err], an error that wraps [ErrNoName] or [ErrNoValue]: check
// it once a batch is built, before sending it. So an empty name reaches
// the wire only when the caller gave one, as empty bytes or the atom of
// "" ([Field.IsValid] is the same test for an encoder given one field at
// a time). Append's fast paths take only fields whose sides hold a
// string and leave every other field to one function, which alone
// decides to reject it, so the check costs them nothing.
//
// The kind of an atom is the atom's own, not the one its type argument
// claimed: a record of package intern given as [Static] is interned, and
// the batch pins it like any handle. A copy of a static atom (an Atom
// value can be copied, though its fields are unexported) is taken for the
// atom it copies by Equal, Kind and Field.Key; the batch stores the
// pointer it was given, so compare such a Str with Equal, not its Atom with ==. No atom, not even
// one unsafe code made, makes a batch panic: keys past the well-known
// ones fill no slot, and [Batch.Get] finds nothing for them.
//
// # Batches
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
// From's and StrOf's reading of their generic arguments and BorrowString
// (source_unsafe.go), the package's only casts between strings and bytes
// (cast_unsafe.go), and Batch.Append's fast paths, which write fields
// and copy short strings in words without bounds checks
// (batch_append_unsafe.go). Each use carries a SAFETY comment with the
// invariant that makes it sound and the tests that guard it. Building
// with -tags purego replaces them with bounds-checked Go, under which the
// package does not import unsafe: Str then holds an atom pointer and a
// byte slice, and Append is appendSafe, the twin that the default build's
// tests compare Append with. The results are the same; under purego only
// BorrowString (and so FromStrings for a string with no atom),
// Str.UnsafeString of plain bytes and Str.UnsafeBytes of an atom copy,
// which no safe Go can avoid, and a Field is not comparable with ==.
//
// The package knows no protocol beyond header lists: gRPC's request rules
// are package grpcmeta's.
package mdelem
