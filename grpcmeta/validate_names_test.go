package grpcmeta

import (
	"strings"
	"testing"

	"github.com/metapack/metapack/internal/tier"
	sd "github.com/metapack/metapack/staticdata"
)

// TestKeyNamesClassified checks what ValidateRequest assumes of the names
// of well-known keys, which it classifies by key alone: each is lowercase
// and not empty, starts with ':' exactly when isPseudoKey says so, and is
// connection-specific (checkName) exactly when it is transfer-encoding.
func TestKeyNamesClassified(t *testing.T) {
	keys := 0
	for id := range tier.NumAtoms {
		a := tier.ByID(id)
		k := a.Key()
		if k == sd.KeyUnknown {
			continue
		}
		keys++
		s := a.String()
		if s == "" || strings.ToLower(s) != s {
			t.Errorf("key %d: name %q is empty or not lowercase", k, s)
		}
		if pseudo := strings.HasPrefix(s, ":"); pseudo != isPseudoKey(k) {
			t.Errorf("key %d %q: isPseudoKey %v, want %v", k, s, isPseudoKey(k), pseudo)
			continue
		}
		if isPseudoKey(k) {
			continue
		}
		err := checkName(s)
		if want := k == sd.KeyTransferEncoding; (err != nil && err.err == ErrConnectionHeader) != want || (err != nil && !want) {
			t.Errorf("key %d %q: checkName = %v", k, s, err)
		}
	}
	if keys != int(tier.NumKeys)-1 {
		t.Errorf("%d atoms have a key, want %d", keys, tier.NumKeys-1)
	}
}

// TestHasUpper compares hasUpper with the plain test on every length up
// to 24, with each of the 256 byte values at each position among bytes
// that are no letter.
func TestHasUpper(t *testing.T) {
	var all []byte
	for c := range 256 {
		all = append(all, byte(c))
	}
	for _, c := range all {
		for n := 0; n <= 24; n++ {
			for at := range n {
				b := []byte(strings.Repeat("x", n))
				b[at] = c
				s := string(b)
				want := 'A' <= c && c <= 'Z'
				if got := hasUpper(s); got != want {
					t.Errorf("hasUpper(%q) = %v, want %v", s, got, want)
				}
			}
		}
	}
}
