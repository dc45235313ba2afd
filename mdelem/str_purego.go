//go:build purego

package mdelem

import "github.com/metapack/metapack/staticdata"

// Str is a header name or value, as in the default build, except that
// under purego a Str and a Field are not comparable with ==: a Str holds a
// byte slice, which plain Go cannot make comparable. Use Equal.
type Str struct {
	// Exactly one of a and b is set for a Str that points anywhere.
	a   *staticdata.Atom
	b   []byte // the bytes, with len(b) = the tag's length
	tag uint64 // length | kind<<kindShift | neverIndexBit
}

// atomStr returns the Str of the atom a (which may be nil) with the tag of
// an atom kind.
func atomStr(a *staticdata.Atom, tag uint64) Str { return Str{a: a, tag: tag} }

// bytesStr returns the Str of b with tag, the tag of a byte kind whose
// length field is len(b).
func bytesStr(b []byte, tag uint64) Str { return Str{b: b[:len(b):len(b)], tag: tag} }

// atomRaw returns s's atom pointer, for a Str whose tag is of an atom kind.
func (s Str) atomRaw() *staticdata.Atom { return s.a }

// bytes returns the bytes of a Str of a byte kind (and none for an atom).
func (s Str) bytes() []byte { return s.b }

// Atom returns s's atom, or nil when s holds plain bytes.
func (s Str) Atom() *staticdata.Atom { return s.a }

// UnsafeBytes returns s's bytes, as in the default build (plain bytes are
// a view that must not be written), except that an atom's string is copied
// under purego, which cannot alias a string as a slice.
func (s Str) UnsafeBytes() []byte {
	if s.a != nil {
		if len(s.a.String()) == 0 {
			return nil
		}
		return []byte(s.a.String())
	}
	return s.b
}

// UnsafeString returns s as a string. Atoms return their canonical string;
// plain bytes are copied under purego, which cannot alias them.
func (s Str) UnsafeString() string {
	if s.a != nil {
		return s.a.String()
	}
	return string(s.b)
}
