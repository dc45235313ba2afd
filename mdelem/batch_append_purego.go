//go:build purego

package mdelem

// Append adds f at the end of the batch. It copies borrowed bytes into the
// arena, adopts owned bytes, and takes an atom's key ID as it is. A name
// given as bytes is looked up in the static tier (a perfect hash, no
// allocation) and, when found, replaced by its atom so that later
// comparisons are pointer compares.
func (b *Batch) Append(f Field) { b.appendSafe(f) }
