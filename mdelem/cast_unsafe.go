//go:build !purego

package mdelem

import "unsafe"

// The package's only conversions between strings and bytes that share
// memory instead of copying: one for each direction, and one for bytes
// known only by their address.

// stringAt returns the n bytes at p as a string, without copying. It is
// how Str.UnsafeString reads plain bytes, and how Append looks up a name
// given as bytes.
//
// SAFETY: callers pass a p and n that describe bytes inside one live
// allocation: a byte kind's Str (whose p and length come from one slice,
// see Str.bytes). The string aliases them, so it must not outlive them
// and they must not change while it is used: Append only hashes and
// compares it, and Str.UnsafeString documents both rules. Guarded by
// TestStrAtGuard and TestAppendAtGuard.
func stringAt(p unsafe.Pointer, n int) string { return unsafe.String((*byte)(p), n) }

// stringBytes returns s's bytes as a slice, without copying. It is how
// BorrowString makes Borrowed bytes of a string, and how
// Str.UnsafeBytes gives an atom's bytes.
//
// SAFETY: the slice has s's data and length (and a capacity of its
// length, so it reaches no further); a string's bytes are immutable, so
// the slice must only be read: Append copies Borrowed bytes into its
// arena, and Str.UnsafeBytes documents that its result must not be
// modified. Guarded by TestStrAtGuard, TestFromStringsKinds and
// TestAppendAtGuard.
func stringBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// sliceAt returns the n bytes at p as a slice.
//
// SAFETY: callers pass a p and n that describe bytes inside one live
// allocation: a byte kind's Str (whose p and length come from one slice)
// or arena space reserveAt returned for n bytes; unsafe.Slice also checks
// n. Guarded by TestStrAtGuard, TestAppendAtGuard and TestAppendTwins.
func sliceAt(p unsafe.Pointer, n int) []byte { return unsafe.Slice((*byte)(p), n) }
