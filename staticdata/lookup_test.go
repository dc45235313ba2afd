package staticdata

import (
	"testing"
)

func TestLookupFindsEveryAtom(t *testing.T) {
	for i := range Atoms {
		a := &Atoms[i]
		if got := Lookup(a.S); got != a {
			t.Errorf("Lookup(%q) = %p, want &Atoms[%d]", a.S, got, i)
		}
		if got := LookupBytes([]byte(a.S)); got != a {
			t.Errorf("LookupBytes(%q) = %p, want &Atoms[%d]", a.S, got, i)
		}
	}
}

func TestLookupRejectsOtherStrings(t *testing.T) {
	others := []string{"x-custom", ":pat", ":paths", "Content-Type", "grpc-statu", "gzip,deflatf", "17", "te ", "a"}
	for i := range Atoms {
		// Every one-byte change of an atom is not an atom (unless it is one).
		s := []byte(Atoms[i].S)
		for j := range s {
			c := append([]byte(nil), s...)
			c[j] ^= 0x20
			others = append(others, string(c))
		}
	}
	for _, s := range others {
		got := Lookup(s)
		if got != nil && got.S != s {
			t.Errorf("Lookup(%q) = atom %q", s, got.S)
		}
		if got == nil && isAtom(s) {
			t.Errorf("Lookup(%q) = nil for an atom", s)
		}
	}
}

func isAtom(s string) bool {
	for i := range Atoms {
		if Atoms[i].S == s {
			return true
		}
	}
	return false
}

func TestLookupField(t *testing.T) {
	for i := 1; i <= StaticTableLen; i++ {
		e := StaticTable[i]
		idx, nameIdx := LookupField(e.Name.S, e.Value.S)
		// The first entry holding the exact field wins.
		if int(idx) > i || StaticTable[idx].Name != e.Name || StaticTable[idx].Value != e.Value {
			t.Errorf("LookupField(%q, %q) = %d, want %d", e.Name.S, e.Value.S, idx, i)
		}
		if nameIdx != e.Name.NameIndex {
			t.Errorf("LookupField(%q, %q) name index %d, want %d", e.Name.S, e.Value.S, nameIdx, e.Name.NameIndex)
		}
		if i2, n2 := LookupFieldBytes([]byte(e.Name.S), []byte(e.Value.S)); i2 != idx || n2 != nameIdx {
			t.Errorf("LookupFieldBytes disagrees for entry %d", i)
		}
		if i3, n3 := LookupFieldAtoms(e.Name, e.Value); i3 != idx || n3 != nameIdx {
			t.Errorf("LookupFieldAtoms disagrees for entry %d", i)
		}
	}
	tests := []struct {
		name, value   string
		idx, nameIdx  uint8
		key           KeyID
		nameIdxByName uint8
	}{
		{":method", "PUT", 0, 2, KeyMethod, 2},
		{":status", "404", 13, 8, KeyStatus, 8},
		{"accept-encoding", "gzip, deflate", 16, 16, KeyAcceptEncoding, 16},
		{"content-type", "application/grpc", 0, 31, KeyContentType, 31},
		{"grpc-status", "0", 0, 0, KeyGrpcStatus, 0},
		{"x-unknown", "", 0, 0, KeyUnknown, 0},
		{"", "", 0, 0, KeyUnknown, 0},
	}
	for _, tt := range tests {
		idx, nameIdx := LookupField(tt.name, tt.value)
		if idx != tt.idx || nameIdx != tt.nameIdx {
			t.Errorf("LookupField(%q, %q) = %d, %d; want %d, %d", tt.name, tt.value, idx, nameIdx, tt.idx, tt.nameIdx)
		}
		n, k := LookupName(tt.name)
		if n != tt.nameIdxByName || k != tt.key {
			t.Errorf("LookupName(%q) = %d, %d; want %d, %d", tt.name, n, k, tt.nameIdxByName, tt.key)
		}
		if n2, k2 := LookupNameBytes([]byte(tt.name)); n2 != n || k2 != k {
			t.Errorf("LookupNameBytes(%q) disagrees", tt.name)
		}
	}
}

func TestLookupNoAllocs(t *testing.T) {
	name, value := []byte("content-type"), []byte("application/grpc")
	miss := []byte("x-request-id-that-is-long")
	n := testing.AllocsPerRun(100, func() {
		LookupBytes(name)
		LookupBytes(miss)
		LookupFieldBytes(name, value)
		LookupNameBytes(miss)
		Lookup("grpc-timeout")
	})
	if n != 0 {
		t.Errorf("lookups allocate %v times", n)
	}
}

// TestMayBeAtom checks the filter in front of the static lookups: it must
// pass every atom, and it should turn away the usual custom names.
func TestMayBeAtom(t *testing.T) {
	for i := range Atoms {
		if s := Atoms[i].S; !MayBeAtom(s) {
			t.Errorf("MayBeAtom(%q) = false for an atom", s)
		}
	}
	for _, s := range []string{"x-tenant-id", "x-request-id", "x-forwarded-for"} {
		if MayBeAtom(s) {
			t.Errorf("MayBeAtom(%q) = true", s)
		}
	}
}
