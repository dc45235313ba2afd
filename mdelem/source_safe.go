package mdelem

// fromSafe is From's pure-Go twin: a type switch per side instead of
// reinterpreting the arguments' words. -tags purego builds From on it;
// the default build compiles it too, for TestFromTwins.
func fromSafe[K, V Source](name K, value V) Field {
	return Field{Name: fromSide(name), Value: fromSide(value)}
}

// fromSide returns the Str of one side of From, with the tag From gives
// its kind: a Static is tagged static whatever its tier, as in the default
// build; Batch.Append reads the atom's own kind.
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
