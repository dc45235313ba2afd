// Package mdelem holds header fields and reusable header batches, the
// lists that package hpack decodes into and encodes from, in the manner of
// gRPC core's mdelem.
//
// A user builds a [Batch] with [NewBatch], appends fields to it, reads
// them back, and Resets it for the next header list, which allocates
// nothing once the batch has grown to its workload:
//
//	b := mdelem.NewBatch(16, 512)
//	b.Append(mdelem.From(mdelem.BorrowString(":path"), mdelem.BorrowString("/helloworld.Greeter/SayHello")))
//	b.Append(mdelem.From(staticdata.KeyContentType.Atom(), staticdata.Lookup("application/grpc")))
//	if f, ok := b.Get(staticdata.KeyPath); ok { ... }   // O(1) for well-known keys
//	f, ok := b.GetString("x-request-id")                // any name
//	for i, f := range b.All() { ... }
//	if err := b.Err(); err != nil { ... }               // a field Append rejected
//	b.Reset()
//
// # Storage kinds
//
// A field's name and value are each a [Str], built by [From] (a field) or
// [StrOf] (one side) from one of four kinds:
//
//   - [Static]: an atom of the static tier ([staticdata.KeyID.Atom] and
//     [staticdata.Lookup] give them);
//   - [Interned]: an [intern.Handle];
//   - [Owned]: a byte slice the caller gives up, adopted without copying;
//   - [Borrowed]: bytes the caller keeps, which [Batch.Append] copies into
//     the batch's arena ([BorrowString] gives a string's bytes as Borrowed
//     without copying).
//
// A batch skips the work the kind makes unnecessary: no copy for atoms or
// owned bytes, no hashing for atom names. Append turns a name given as
// bytes into its static atom when it has one, so Get finds it either way.
//
// # Valid parts
//
// The zero Str, a nil Static (staticdata.Lookup's answer for a string with
// no atom) and the zero intern.Handle hold no string ([Str.IsValid]):
// [Batch.Append] drops a field with such a side, and records the first one
// since Reset in [Batch.Err]. An intern record given as Static is interned.
//
// # Safety
//
// Names starting with Unsafe hand out views of memory that a batch or an
// atom shares, which must not be written. The package's unsafe code lives
// in the files named *_unsafe.go; building with -tags purego replaces it
// with bounds-checked Go, with the same results, except that under purego
// BorrowString, [Str.UnsafeString] of bytes and [Str.UnsafeBytes] of an
// atom copy, and [Field] and [Str] are not comparable with ==.
//
// The package knows no protocol beyond header lists: gRPC's request rules
// are package grpcmeta's.
package mdelem
