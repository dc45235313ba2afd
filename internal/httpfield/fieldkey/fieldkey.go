// Package fieldkey classifies the names of well-known keys by the rules of
// package httpfield without reading their bytes.
package fieldkey

import (
	"github.com/metapack/metapack/internal/httpfield"
	sd "github.com/metapack/metapack/staticdata"
)

var pseudo = [...]httpfield.Pseudo{
	sd.KeyMethod:    httpfield.Method,
	sd.KeyScheme:    httpfield.Scheme,
	sd.KeyPath:      httpfield.Path,
	sd.KeyAuthority: httpfield.Authority,
	sd.KeyStatus:    httpfield.Status,
}

// Pseudo returns httpfield.PseudoOf of k's name: the pseudo-header field
// k names, or 0 for a key that names none.
func Pseudo(k sd.KeyID) httpfield.Pseudo {
	if int(k) < len(pseudo) {
		return pseudo[k]
	}
	return 0
}
