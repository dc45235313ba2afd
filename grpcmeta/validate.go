package grpcmeta

import (
	"github.com/metapack/metapack/internal/httpfield"
	"github.com/metapack/metapack/internal/httpfield/fieldkey"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// ValidateRequest checks a request header list as an HTTP/2 server must
// (RFC 9113 §8.2 and §8.3.1) and returns a *FieldError naming the first
// field that breaks a rule: pseudo-headers first, each of :method,
// :scheme, :path and :authority at most once and no others, the first
// three present (ErrPseudoHeader), names lowercase and not empty
// (ErrName), no connection-specific headers, and te only "trailers"
// (ErrConnectionHeader). A nil b is an empty list.
//
// A well-known key's name is classified by its key alone: those names
// are lowercase, the only ones that start with ':' are the pseudo-header
// keys, and the only connection-specific one is transfer-encoding. Other
// names are checked byte by byte.
func ValidateRequest(b *mdelem.Batch) error {
	n := 0
	if b != nil {
		n = b.Len()
	}
	var s httpfield.Section
	const allowed = httpfield.Method | httpfield.Scheme | httpfield.Path | httpfield.Authority
	for i := range n {
		f := b.At(i)
		var err *rule
		if a := f.Name.Atom(); a != nil && a.Key() != staticdata.KeyUnknown {
			key := a.Key()
			if p := fieldkey.Pseudo(key); p != 0 {
				if r := s.Pseudo(p, allowed); r != httpfield.OK {
					return fieldErr(i, f, rules[r])
				}
				continue
			}
			s.Order(false)
			switch key {
			case staticdata.KeyTransferEncoding:
				err = errConnectionHeader
			case staticdata.KeyTe:
				if f.Value.UnsafeString() != "trailers" {
					err = errBadTE
				}
			}
		} else {
			var pseudo bool
			if a := f.Name.Atom(); a != nil {
				// A static-tier string that is no key, or an interned name.
				name := a.String()
				pseudo, err = len(name) > 0 && name[0] == ':', checkName(name)
			} else {
				name := f.Name.UnsafeBytes()
				pseudo, err = len(name) > 0 && name[0] == ':', checkName(name)
			}
			if pseudo {
				// Every pseudo-header a request may carry is a key.
				return fieldErr(i, f, rules[s.Pseudo(0, allowed)])
			}
			s.Order(false)
		}
		if err != nil {
			return fieldErr(i, f, err)
		}
	}
	if required := httpfield.Method | httpfield.Scheme | httpfield.Path; s.Seen()&required != required {
		for _, k := range [...]staticdata.KeyID{staticdata.KeyMethod, staticdata.KeyScheme, staticdata.KeyPath} {
			if s.Seen()&fieldkey.Pseudo(k) == 0 {
				return missingErr(k.String(), errMissingPseudo)
			}
		}
	}
	return nil
}

// checkName checks a regular header's name that is no well-known key.
func checkName[T string | []byte](name T) *rule {
	switch {
	case len(name) == 0:
		return errEmptyName
	case httpfield.HasUpper(name):
		return errUppercaseName
	case httpfield.ConnectionSpecific(name):
		return errConnectionHeader
	}
	return nil
}
