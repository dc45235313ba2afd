//go:build purego

package mdelem

// Append adds f at the end of the batch, as in the default build; a field
// with a side that holds no string (see Str.IsValid) goes to Err instead.
func (b *Batch) Append(f Field) { b.append(f) }
