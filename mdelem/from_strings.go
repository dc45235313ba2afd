package mdelem

import (
	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/staticdata"
)

// FromStrings builds a field from a name and a value given as strings, the
// common case. Each side is the static-tier atom of its string when there
// is one (":path", "content-type", "application/grpc", "200"...), which a
// batch indexes and compares by pointer, and borrowed bytes otherwise,
// which Batch.Append copies, so the strings need to live only until then.
// It does not allocate (under purego, which cannot alias a string as a
// slice, a side that is no atom is copied: see BorrowString).
//
// For sides whose storage is known at compile time (an atom, a handle,
// bytes to adopt), From costs less: it looks nothing up.
func FromStrings(name, value string) Field {
	return Field{Name: strOfString(name), Value: strOfString(value)}
}

// strOfString returns the static atom of s, or s's bytes, borrowed.
func strOfString(s string) Str {
	if a := staticAtom(s); a != nil {
		return atomStr(a, tagStatic)
	}
	return bytesStr(BorrowString(s), uint64(len(s))|tagBorrowed)
}

// staticAtom returns the static-tier atom whose string is s, or nil. It is
// the one lookup of the package that turns bytes into an atom: FromStrings
// and both Append paths make it, so that they agree on every string. Most
// strings that are no atom fail the filter, which costs less than the
// hash.
func staticAtom[T string | []byte](s T) *staticdata.Atom {
	if !tier.MayBeAtom(s) {
		return nil
	}
	return staticdata.Lookup(s)
}
