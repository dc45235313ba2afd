package staticdata

import (
	"testing"

	"github.com/metapack/metapack/internal/tier"
)

// TestKeyNames checks the generated key constants against their header
// names, both ways: KeyID.String and Lookup(name).Key.
func TestKeyNames(t *testing.T) {
	tests := []struct {
		k    KeyID
		name string
	}{
		{KeyAuthority, ":authority"},
		{KeyPath, ":path"},
		{KeyContentType, "content-type"},
		{KeyUserAgent, "user-agent"},
		{KeyTe, "te"},
		{KeyGrpcTimeout, "grpc-timeout"},
		{KeyGrpcStatusDetailsBin, "grpc-status-details-bin"},
		{KeyLbToken, "lb-token"},
	}
	for _, tt := range tests {
		if got := tt.k.String(); got != tt.name {
			t.Errorf("KeyID(%d).String() = %q, want %q", tt.k, got, tt.name)
		}
		if a := Lookup(tt.name); a == nil || a.Key() != tt.k || a != tt.k.Atom() {
			t.Errorf("Lookup(%q) = %v, want the atom of key %d", tt.name, a, tt.k)
		}
	}
	for k := KeyID(1); k < tier.NumKeys; k++ {
		if a := Lookup(k.String()); a == nil || a.Key() != k {
			t.Errorf("key %d (%q) does not look up to itself", k, k.String())
		}
	}
}

// TestQPACKNamesAreNotKeys checks that names only QPACK's static table has
// are atoms and names, but not well-known keys.
func TestQPACKNamesAreNotKeys(t *testing.T) {
	for _, s := range []string{"alt-svc", "early-data", "x-xss-protection", "access-control-allow-headers"} {
		if a := Lookup(s); a == nil || !a.IsName() || a.Key() != KeyUnknown {
			t.Errorf("Lookup(%q) = %v; want an atom that is a name and no key", s, a)
		}
	}
}

// TestKeyIDOutOfRange checks that a KeyID that names no key has no atom and no
// string, rather than panicking or passing for the empty string.
func TestKeyIDOutOfRange(t *testing.T) {
	for _, k := range []KeyID{tier.NumKeys, 200, 255} {
		if a := k.Atom(); a != nil {
			t.Errorf("KeyID(%d).Atom() = %q, want nil", k, a.String())
		}
		if s := k.String(); s != "" {
			t.Errorf("KeyID(%d).String() = %q, want empty", k, s)
		}
	}
	if KeyUnknown.Atom() == nil || KeyPath.Atom().String() != ":path" {
		t.Errorf("in-range keys lost their atoms")
	}
}

// TestLookupMisses checks that Lookup turns away strings of no atom, in
// both forms and in named types of both.
func TestLookupMisses(t *testing.T) {
	type name string
	type raw []byte
	for _, s := range []string{"x-request-id", ":pat", "Content-Type", "grpc-timeouts"} {
		if Lookup(s) != nil || Lookup([]byte(s)) != nil || Lookup(name(s)) != nil || Lookup(raw(s)) != nil {
			t.Errorf("Lookup(%q) found an atom", s)
		}
	}
	if a := Lookup(raw("grpc-status")); a == nil || a.Key() != KeyGrpcStatus {
		t.Errorf("Lookup of a named byte slice missed grpc-status")
	}
}

// TestLookupNoAllocs checks that Lookup of a byte slice does not allocate:
// on the longest atom, and on a miss long enough (over 32 bytes) that a
// string(b) the compiler had to materialize would come from the heap.
func TestLookupNoAllocs(t *testing.T) {
	hit := []byte("access-control-allow-origin")
	miss := []byte("x-a-custom-header-name-longer-than-32-bytes")
	if n := testing.AllocsPerRun(100, func() {
		if Lookup(hit) == nil || Lookup(miss) != nil {
			t.Fatal("wrong lookup result")
		}
	}); n != 0 {
		t.Errorf("Lookup allocates %v times", n)
	}
}
