package mdelem

import (
	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/staticdata"
)

// Kind tells how a Str's bytes are stored, as the tests see it.
type Kind uint8

const (
	KindStatic   Kind = iota // a static-tier atom
	KindInterned             // an interned (non-static) atom
	KindOwned                // bytes adopted from the caller
	KindBorrowed             // bytes copied, or to be copied, into a batch arena
	KindInvalid              // a Str that holds no string
)

func (k Kind) String() string {
	if names := [...]string{"static", "interned", "owned", "borrowed"}; int(k) < len(names) {
		return names[k]
	}
	return "invalid"
}

// kind returns s's storage kind as its tag records it.
func (s Str) kind() Kind { return Kind(s.tag >> kindShift & 3) }

// Kind returns how s is stored: for an atom, the atom's own kind, whatever
// the tag says; KindInvalid when s holds no string.
func (s Str) Kind() Kind {
	if s.tag&tagBytes != 0 {
		return s.kind()
	}
	if a := s.atomRaw(); a == nil {
		return KindInvalid
	} else if tier.ID(a) == tier.NotStatic {
		return KindInterned
	}
	return KindStatic
}

func (s Str) IsAtom() bool                          { return s.Atom() != nil }
func (s Str) EqualString(x string) bool             { return s.equal(x) }
func (f Field) IsValid() bool                       { return f.Name.IsValid() && f.Value.IsValid() }
func (f Field) IsPseudo() bool                      { s := f.Name.UnsafeString(); return len(s) > 0 && s[0] == ':' }
func (b *Batch) UnsafeFields() []Field              { return b.fields }
func (b *Batch) GetBytes(name []byte) (Field, bool) { return b.GetString(string(name)) }

// Key returns the well-known key ID of f's name, KeyUnknown for bytes.
func (f Field) Key() staticdata.KeyID {
	if a := f.Name.Atom(); a != nil && a.Key() < tier.NumKeys {
		return a.Key()
	}
	return staticdata.KeyUnknown
}

// FromStrings is the field of name and value with each side the static
// atom of its string when there is one, else borrowed bytes.
func FromStrings(name, value string) Field {
	return Field{Name: strOfString(name), Value: strOfString(value)}
}

func strOfString(s string) Str {
	if a := staticdata.Lookup(s); a != nil && tier.MayBeAtom(s) {
		return atomStr(a, tagStatic)
	}
	return bytesStr(BorrowString(s), uint64(len(s))|tagBorrowed)
}
