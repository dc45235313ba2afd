//go:build purego

package mdelem

// Append adds f at the end of the batch. It copies borrowed bytes into the
// arena, adopts owned bytes, and keeps atoms as they are. A name given as
// bytes that spells a well-known string is replaced by its static atom, so
// that Get finds it and later comparisons are pointer compares.
//
// A field with a side that holds no string (see Str.IsValid) is not
// appended: Err reports it, and the batch is otherwise unchanged.
func (b *Batch) Append(f Field) { b.append(f) }
