// Package internkeys is the decoders' choice of the fields whose values
// they intern, HPACK's and QPACK's: by default the keys whose values take
// few distinct strings in practice.
package internkeys

import (
	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/staticdata"
)

// Set tells, by key, whether values are interned.
type Set [tier.NumKeys]bool

// Default returns the keys interned unless a caller chooses others:
// :method, :scheme, :status, content-type, te, grpc-encoding,
// grpc-accept-encoding, accept-encoding, content-encoding and grpc-status.
func Default() Set {
	var s Set
	for _, k := range [...]staticdata.KeyID{
		staticdata.KeyMethod, staticdata.KeyScheme, staticdata.KeyStatus, staticdata.KeyContentType, staticdata.KeyTe,
		staticdata.KeyGrpcEncoding, staticdata.KeyGrpcAcceptEncoding, staticdata.KeyAcceptEncoding,
		staticdata.KeyContentEncoding, staticdata.KeyGrpcStatus,
	} {
		s[k] = true
	}
	return s
}

// Of returns the set of the keys given; IDs that name no key are ignored,
// and staticdata.KeyUnknown stands for every other name.
func Of(keys []staticdata.KeyID) Set {
	var s Set
	for _, k := range keys {
		if k < tier.NumKeys {
			s[k] = true
		}
	}
	return s
}
