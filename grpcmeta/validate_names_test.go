package grpcmeta

import (
	"strings"
	"testing"

	"github.com/metapack/metapack/internal/httpfield/fieldkey"
	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/staticdata"
)

// TestKeyNamesClassified checks what ValidateRequest assumes of the names
// of well-known keys, which it classifies by key alone: each is lowercase
// and not empty, starts with ':' exactly when fieldkey.Pseudo says so, and is
// connection-specific (checkName) exactly when it is transfer-encoding.
func TestKeyNamesClassified(t *testing.T) {
	keys := 0
	for id := range tier.NumAtoms {
		a := tier.ByID(id)
		k := a.Key()
		if k == staticdata.KeyUnknown {
			continue
		}
		keys++
		s := a.String()
		if s == "" || strings.ToLower(s) != s {
			t.Errorf("key %d: name %q is empty or not lowercase", k, s)
		}
		pseudo := strings.HasPrefix(s, ":")
		if pseudo != (fieldkey.Pseudo(k) != 0) {
			t.Errorf("key %d %q: fieldkey.Pseudo %v, want a pseudo-header: %v", k, s, fieldkey.Pseudo(k), pseudo)
			continue
		}
		if pseudo {
			continue
		}
		err := checkName(s)
		if want := k == staticdata.KeyTransferEncoding; (err != nil && err.err == ErrConnectionHeader) != want || (err != nil && !want) {
			t.Errorf("key %d %q: checkName = %v", k, s, err)
		}
	}
	if keys != int(tier.NumKeys)-1 {
		t.Errorf("%d atoms have a key, want %d", keys, tier.NumKeys-1)
	}
}
