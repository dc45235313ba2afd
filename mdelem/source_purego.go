//go:build purego

package mdelem

// BorrowString returns a Borrowed copy of s. Under purego, which cannot
// alias a string as a slice, it copies; the batch copies it again on
// Append.
func BorrowString(s string) Borrowed { return Borrowed(s) }

// From builds a field from a name and a value of any storage kind. A
// Borrowed side still points at the caller's bytes: Batch.Append copies it.
// A nil Static or the zero Interned gives a side that holds no string,
// which Batch.Append rejects (see Str.IsValid).
func From[K, V Source](name K, value V) Field {
	return Field{Name: fromSide(name), Value: fromSide(value)}
}

// StrOf returns one side of a field, of any storage kind, as From would
// build it: for decoders and tables that make a name and a value at
// different times. A nil Static or the zero Interned gives a Str that
// holds no string, which Batch.Append rejects.
func StrOf[S Source](s S) Str { return fromSide(s) }
