// Package fieldkey classifies the names of well-known keys by the rules of
// package httpfield without reading their bytes.
package fieldkey

import (
	"github.com/metapack/metapack/internal/httpfield"
	"github.com/metapack/metapack/staticdata"
)

var pseudo = [...]httpfield.Pseudo{
	staticdata.KeyMethod:    httpfield.Method,
	staticdata.KeyScheme:    httpfield.Scheme,
	staticdata.KeyPath:      httpfield.Path,
	staticdata.KeyAuthority: httpfield.Authority,
	staticdata.KeyStatus:    httpfield.Status,
}

// Pseudo returns httpfield.PseudoOf of k's name: the pseudo-header field
// k names, or 0 for a key that names none.
func Pseudo(k staticdata.KeyID) httpfield.Pseudo {
	if int(k) < len(pseudo) {
		return pseudo[k]
	}
	return 0
}
