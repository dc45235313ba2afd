package main

import (
	"strings"

	"github.com/cespare/xxhash/v2"
)

// atom is one string of the static tier: a name or value of RFC 7541's or
// RFC 9204's static table, or a gRPC well-known key or value.
type atom struct {
	s         string
	hash      uint64
	nameIndex int // first static-table index whose name is s; 0 when none
	qName     int // 1 + the first QPACK static index whose name is s; 0 when none
	key       int // well-known key ID; 0 when s is not a key
}

// buildAtoms orders the atoms so that atom i is key ID i for every key:
// atom 0 is the empty string (key ID 0 means "not a well-known key"), then
// the static-table names in table order, then the gRPC keys the static table
// lacks, then every value not already present, then the QPACK static
// table's names and values not already present. QPACK's names are not keys.
func buildAtoms(table []staticEntry, grpc grpcMetadata, qtable []staticEntry) []atom {
	atoms := []atom{{s: ""}}
	seen := map[string]int{"": 0}
	add := func(s string, isKey bool) int {
		if id, ok := seen[s]; ok {
			return id
		}
		id := len(atoms)
		a := atom{s: s}
		if isKey {
			a.key = id
		}
		atoms = append(atoms, a)
		seen[s] = id
		return id
	}
	for i, e := range table {
		id := add(e.name, true)
		if atoms[id].nameIndex == 0 {
			atoms[id].nameIndex = i + 1
		}
	}
	for _, k := range grpc.keys {
		add(k, true)
	}
	for _, e := range table {
		add(e.value, false)
	}
	for _, v := range grpc.values {
		add(v, false)
	}
	for i, e := range qtable {
		if id := add(e.name, false); atoms[id].qName == 0 {
			atoms[id].qName = i + 1
		}
	}
	for _, e := range qtable {
		add(e.value, false)
	}
	for i := range atoms {
		atoms[i].hash = xxhash.Sum64String(atoms[i].s)
	}
	return atoms
}

// numKeys counts the key IDs, the unused ID 0 included.
func numKeys(atoms []atom) int {
	n := 1
	for _, a := range atoms {
		if a.key > 0 {
			n = a.key + 1
		}
	}
	return n
}

// keyConstName turns a header name into a Go identifier: ":path" becomes
// KeyPath and "grpc-status-details-bin" becomes KeyGrpcStatusDetailsBin.
func keyConstName(name string) string {
	var b strings.Builder
	b.WriteString("Key")
	for _, part := range strings.FieldsFunc(name, func(r rune) bool { return r == ':' || r == '-' }) {
		b.WriteString(strings.ToUpper(part[:1]))
		b.WriteString(part[1:])
	}
	return b.String()
}
