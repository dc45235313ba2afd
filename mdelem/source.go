package mdelem

import (
	"github.com/metapack/metapack/intern"
	"github.com/metapack/metapack/staticdata"
)

// The four storage kinds a constructor accepts. Each is its own type, so a
// generic constructor learns the kind from its type argument.
type (
	// Static is a static-tier atom, such as staticdata.KeyPath.Atom(). A
	// nil one holds no string (Batch.Append rejects the field). An atom
	// of package intern given as Static is kept alive as an Interned one.
	Static = *staticdata.Atom
	// Interned is a handle from package intern. The zero Handle holds no
	// string: Batch.Append rejects the field.
	Interned = intern.Handle
	// Owned is a byte slice the caller gives up: the batch keeps it without
	// copying, and the caller must not modify it afterwards.
	Owned []byte
	// Borrowed is a byte slice the caller keeps: the batch copies it into its
	// arena.
	Borrowed []byte
)

// Source is the set of storage kinds From accepts.
type Source interface {
	Static | Interned | Owned | Borrowed
}

// fromSide returns the Str of one side of From: a Static is tagged static
// whatever its tier, as in the default build. The switch is on a pointer
// to x, which fits an interface unboxed, so From does not allocate.
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
