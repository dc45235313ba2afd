//go:build purego

package mdelem

// BorrowString returns a Borrowed copy of s. Under purego, which cannot
// alias a string as a slice, it copies; the batch copies it again on
// Append.
func BorrowString(s string) Borrowed { return Borrowed(s) }

// From builds a field from a name and a value of any storage kind, as in
// the default build.
func From[K, V Source](name K, value V) Field {
	return Field{Name: fromSide(name), Value: fromSide(value)}
}

// StrOf returns one side of a field, of any storage kind, as From would
// build it.
func StrOf[S Source](s S) Str { return fromSide(s) }
