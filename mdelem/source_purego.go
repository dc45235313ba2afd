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

// fromSide returns the Str of one side of From, with the tag From gives
// its kind: a Static is tagged static whatever its tier, as in the default
// build; Str.Kind and Batch.Append read the atom's own kind.
//
// The switch is on a pointer to x, which fits an interface without being
// boxed, so From does not allocate.
func fromSide[S Source](x S) Str {
	switch p := any(&x).(type) {
	case *Static:
		return atomStr(*p, tagStatic)
	case *Interned:
		return atomStr(p.Atom(), tagInterned)
	case *Owned:
		return bytesStr(*p, uint64(len(*p))|tagOwned)
	case *Borrowed:
		return bytesStr(*p, uint64(len(*p))|tagBorrowed)
	}
	panic("unreachable")
}
