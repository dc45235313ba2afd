package tier

import (
	"math"
	"strconv"
	"testing"
	"unsafe"

	"github.com/cespare/xxhash/v2"
)

// firstQPACKName returns the first QPACK static index whose name is a, or
// QPACKNone, by scanning the table.
func firstQPACKName(a *Atom) uint8 {
	for i := range qpackTable {
		if qpackTable[i].Name == a {
			return uint8(i)
		}
	}
	return QPACKNone
}

// TestQPACKEveryEntry looks every entry of the QPACK static table up by its
// two atoms, and checks every atom's QPACK name index against a scan.
func TestQPACKEveryEntry(t *testing.T) {
	for i := range QPACKTableLen {
		e, ok := QPACKEntryAt(i)
		if !ok || e != qpackTable[i] {
			t.Fatalf("QPACKEntryAt(%d) = %+v, %v", i, e, ok)
		}
		idx, nameIdx := QPACKLookupFieldAtoms(e.Name, e.Value)
		if int(idx) != i || nameIdx != firstQPACKName(e.Name) || int(nameIdx) > i {
			t.Errorf("entry %d %q: %q: lookup gives %d, name index %d", i, e.Name.s, e.Value.s, idx, nameIdx)
		}
		if want := uint32(len(e.Name.s) + len(e.Value.s) + 32); e.Size != want {
			t.Errorf("entry %d: size %d, want %d", i, e.Size, want)
		}
	}
	for i := range atoms {
		a := &atoms[i]
		if got, want := QPACKNameIndex(a), firstQPACKName(a); got != want {
			t.Errorf("QPACKNameIndex(%q) = %d, want %d", a.s, got, want)
		}
	}
	for _, i := range []int{-1, QPACKTableLen, math.MaxInt} {
		if e, ok := QPACKEntryAt(i); ok || e.Name != nil {
			t.Errorf("QPACKEntryAt(%d) = %+v, %v; want no entry", i, e, ok)
		}
	}
}

// TestQPACKLookupCases covers names spread over the table, values several
// names share, mismatched values and atoms outside the QPACK table.
func TestQPACKLookupCases(t *testing.T) {
	record := func(s string) *Atom { a := New(s, xxhash.Sum64String(s)); return &a }
	const none = QPACKNone
	tests := []struct {
		name         string
		n, v         *Atom
		idx, nameIdx uint8
	}{
		{"index 0", Lookup(":authority"), Lookup(""), 0, 0},
		{"second run of :status", Lookup(":status"), Lookup("500"), 71, 24},
		{"first run of :status", Lookup(":status"), Lookup("304"), 26, 24},
		{"name in three places", Lookup("access-control-allow-headers"), Lookup("*"), 75, 33},
		{"shared value *, HPACK name", Lookup("access-control-allow-origin"), Lookup("*"), 35, 35},
		{"shared value *, QPACK-only name", Lookup("timing-allow-origin"), Lookup("*"), 93, 93},
		{"shared value 1", Lookup("early-data"), Lookup("1"), 86, 86},
		{"shared value 1 again", Lookup("upgrade-insecure-requests"), Lookup("1"), 94, 94},
		{"shared value 0", Lookup("content-length"), Lookup("0"), 4, 4},
		{"value that is a name", Lookup("access-control-request-headers"), Lookup("content-type"), 80, 80},
		{"value of another entry", Lookup(":status"), Lookup("GET"), none, 24},
		{"value of the name elsewhere", Lookup("age"), Lookup("1"), none, 2},
		{"HPACK value, not QPACK's", Lookup(":path"), Lookup("/index.html"), none, 1},
		{"value outside the static tier", Lookup(":path"), record("/"), none, 1},
		{"nil value", Lookup("content-type"), nil, none, 44},
		{"HPACK-only name", Lookup("accept-charset"), Lookup(""), none, none},
		{"gRPC key", Lookup("grpc-status"), Lookup("0"), none, none},
		{"a value as name", Lookup("GET"), Lookup(""), none, none},
		{"name outside the static tier", record(":status"), Lookup("200"), none, none},
		{"nil name", nil, Lookup("200"), none, none},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if idx, nameIdx := QPACKLookupFieldAtoms(tt.n, tt.v); idx != tt.idx || nameIdx != tt.nameIdx {
				t.Errorf("QPACKLookupFieldAtoms = %d, %d; want %d, %d", idx, nameIdx, tt.idx, tt.nameIdx)
			}
		})
	}
}

// TestQPACKMatchesShared checks the QPACK static table against the RFC 9204
// data in ../shared, looking each row up by its strings' atoms.
func TestQPACKMatchesShared(t *testing.T) {
	rows := readTSV(t, "rfc9204", "static-table.tsv")
	if len(rows) != QPACKTableLen {
		t.Fatalf("shared QPACK static table has %d rows", len(rows))
	}
	for _, row := range rows {
		i, _ := strconv.Atoi(row[0])
		value := ""
		if len(row) > 2 {
			value = row[2]
		}
		n, v := Lookup(row[1]), Lookup(value)
		if n == nil || v == nil {
			t.Errorf("row %d: %q: %q is not in the static tier", i, row[1], value)
			continue
		}
		if idx, _ := QPACKLookupFieldAtoms(n, v); int(idx) != i {
			t.Errorf("row %d: %q: %q looks up to %d", i, row[1], value, idx)
		}
		if e, _ := QPACKEntryAt(i); e.Name != n || e.Value != v {
			t.Errorf("entry %d: %q: %q, RFC data says %q: %q", i, e.Name.s, e.Value.s, row[1], value)
		}
	}
}

// TestAtomSize keeps an atom at 32 bytes, two to a cache line.
func TestAtomSize(t *testing.T) {
	if n := unsafe.Sizeof(Atom{}); n != 32 {
		t.Errorf("an Atom takes %d bytes, want 32", n)
	}
}

// TestPairLookupsExhaustive checks both tables' pair lookups against a scan
// for every pair of static atoms and a record: a pair whose slot holds
// another entry of the same name must miss.
func TestPairLookupsExhaustive(t *testing.T) {
	rec := New("/", atoms[0].hash)
	values := []*Atom{nil, &rec}
	for i := range atoms {
		values = append(values, &atoms[i])
	}
	for _, n := range values[1:] {
		for _, v := range values {
			wantQ, wantH := uint8(QPACKNone), uint8(0)
			for i, e := range qpackTable {
				if e.Name == n && e.Value == v {
					wantQ = uint8(i)
				}
			}
			for i, e := range staticTable {
				if i > 0 && e.Name == n && e.Value == v {
					wantH = uint8(i)
				}
			}
			if q, qn := QPACKLookupFieldAtoms(n, v); q != wantQ || qn != firstQPACKName(n) {
				t.Errorf("QPACKLookupFieldAtoms(%q, %v) = %d, %d; want %d, %d", n.s, v, q, qn, wantQ, firstQPACKName(n))
			}
			if h, hn := LookupFieldAtoms(n, v); h != wantH || hn != n.nameIndex {
				t.Errorf("LookupFieldAtoms(%q, %v) = %d, %d; want %d, %d", n.s, v, h, hn, wantH, n.nameIndex)
			}
		}
	}
}
