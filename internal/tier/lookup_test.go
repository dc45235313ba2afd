package tier

import (
	"testing"
)

func TestLookupFindsEveryAtom(t *testing.T) {
	for i := range atoms {
		a := &atoms[i]
		if got := Lookup(a.s); got != a {
			t.Errorf("Lookup(%q) = %p, want &atoms[%d]", a.s, got, i)
		}
		if got := Lookup([]byte(a.s)); got != a {
			t.Errorf("Lookup([]byte %q) = %p, want &atoms[%d]", a.s, got, i)
		}
	}
}

func TestLookupRejectsOtherStrings(t *testing.T) {
	others := []string{"x-custom", ":pat", ":paths", "Content-Type", "grpc-statu", "gzip,deflatf", "17", "te ", "a"}
	for i := range atoms {
		// Every one-byte change of an atom is not an atom (unless it is one).
		s := []byte(atoms[i].s)
		for j := range s {
			c := append([]byte(nil), s...)
			c[j] ^= 0x20
			others = append(others, string(c))
		}
	}
	for _, s := range others {
		got := Lookup(s)
		if got != nil && got.s != s {
			t.Errorf("Lookup(%q) = atom %q", s, got.s)
		}
		if got == nil && isAtom(s) {
			t.Errorf("Lookup(%q) = nil for an atom", s)
		}
	}
}

func isAtom(s string) bool {
	for i := range atoms {
		if atoms[i].s == s {
			return true
		}
	}
	return false
}

func TestLookupField(t *testing.T) {
	for i := 1; i <= TableLen; i++ {
		e := staticTable[i]
		idx, nameIdx := LookupField(e.Name.s, e.Value.s)
		// The first entry holding the exact field wins.
		if int(idx) > i || staticTable[idx].Name != e.Name || staticTable[idx].Value != e.Value {
			t.Errorf("LookupField(%q, %q) = %d, want %d", e.Name.s, e.Value.s, idx, i)
		}
		if nameIdx != e.Name.nameIndex {
			t.Errorf("LookupField(%q, %q) name index %d, want %d", e.Name.s, e.Value.s, nameIdx, e.Name.nameIndex)
		}
		if i2, n2 := LookupField([]byte(e.Name.s), []byte(e.Value.s)); i2 != idx || n2 != nameIdx {
			t.Errorf("LookupField of byte slices disagrees for entry %d", i)
		}
		if i3, n3 := LookupFieldAtoms(e.Name, e.Value); i3 != idx || n3 != nameIdx {
			t.Errorf("LookupFieldAtoms disagrees for entry %d", i)
		}
	}
	tests := []struct {
		name, value   string
		idx, nameIdx  uint8
		key           uint8
		nameIdxByName uint8
	}{
		{":method", "PUT", 0, 2, 2, 2},
		{":method", "PATCH", 0, 2, 2, 2}, // no atom
		{":status", "404", 13, 8, 5, 8},
		{"accept-encoding", "gzip, deflate", 16, 16, 7, 16},
		{"content-type", "application/grpc", 0, 31, 22, 31},
		{"grpc-status", "0", 0, 0, 57, 0},
		{"x-unknown", "", 0, 0, 0, 0},
		{"", "", 0, 0, 0, 0},
	}
	for _, tt := range tests {
		idx, nameIdx := LookupField(tt.name, tt.value)
		if idx != tt.idx || nameIdx != tt.nameIdx {
			t.Errorf("LookupField(%q, %q) = %d, %d; want %d, %d", tt.name, tt.value, idx, nameIdx, tt.idx, tt.nameIdx)
		}
		n, k := lookupName(tt.name)
		if n != tt.nameIdxByName || k != tt.key {
			t.Errorf("lookupName(%q) = %d, %d; want %d, %d", tt.name, n, k, tt.nameIdxByName, tt.key)
		}
		if n2, k2 := lookupName([]byte(tt.name)); n2 != n || k2 != k {
			t.Errorf("lookupName of a byte slice %q disagrees", tt.name)
		}
	}
}

// TestLookupFieldAtomsPointers checks that the atom lookup matches atoms,
// not strings: a record with a static string is no static value.
func TestLookupFieldAtomsPointers(t *testing.T) {
	slash := New("/", Lookup("/").hash)
	tests := []struct {
		name         string
		n, v         *Atom
		idx, nameIdx uint8
	}{
		{"static atoms", Lookup(":path"), Lookup("/"), 4, 4},
		{"record value", Lookup(":path"), &slash, 0, 4},
		{"nil value", Lookup(":path"), nil, 0, 4},
		{"QPACK-only value", Lookup(":path"), Lookup("nosniff"), 0, 4},
		{"QPACK-only name", Lookup("alt-svc"), Lookup("clear"), 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if idx, nameIdx := LookupFieldAtoms(tt.n, tt.v); idx != tt.idx || nameIdx != tt.nameIdx {
				t.Errorf("LookupFieldAtoms = %d, %d; want %d, %d", idx, nameIdx, tt.idx, tt.nameIdx)
			}
		})
	}
}

func TestLookupNoAllocs(t *testing.T) {
	name, value := []byte("content-type"), []byte("application/grpc")
	miss := []byte("x-request-id-that-is-long")
	// Past 32 bytes a string(b) that the compiler had to materialize would
	// come from the heap, not from a stack buffer.
	long := []byte("strict-transport-security-and-then-some-more")
	longHit := []byte("strict-transport-security")
	n := testing.AllocsPerRun(100, func() {
		Lookup(name)
		Lookup(miss)
		Lookup(long)
		Lookup(long)
		LookupField(name, value)
		LookupField(longHit, long)
		lookupName(miss)
		lookupName(long)
		MayBeAtom(long)
		Lookup("grpc-timeout")
	})
	if n != 0 {
		t.Errorf("lookups allocate %v times", n)
	}
}

// TestMayBeAtom checks the filter in front of the static lookups: it must
// pass every atom, and it should turn away the usual custom names.
func TestMayBeAtom(t *testing.T) {
	for i := range atoms {
		if s := atoms[i].s; !MayBeAtom(s) {
			t.Errorf("MayBeAtom(%q) = false for an atom", s)
		}
	}
	for _, s := range []string{"x-tenant-id", "x-request-id", "x-real-ip"} {
		if MayBeAtom(s) {
			t.Errorf("MayBeAtom(%q) = true", s)
		}
	}
}

// TestHasValues checks HasValues against the RFC's list of the names with
// a non-empty static value, and against every other static name.
func TestHasValues(t *testing.T) {
	valued := map[string]bool{":method": true, ":path": true, ":scheme": true, ":status": true, "accept-encoding": true}
	for i := 1; i <= TableLen; i++ {
		name := staticTable[i].Name
		t.Run(name.s, func(t *testing.T) {
			if got := HasValues(name.nameIndex); got != valued[name.s] {
				t.Errorf("HasValues(%d) = %v, want %v", name.nameIndex, got, valued[name.s])
			}
		})
	}
	if HasValues(0) {
		t.Error("HasValues(0) = true, want false")
	}
}
