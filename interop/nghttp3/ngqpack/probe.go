package ngqpack

import "github.com/metapack/metapack/internal/hcode"

// Probe returns a field section that holds one field line: an indexed
// field line (RFC 9204 §4.5.2) for the dynamic table entry of absolute
// index absIndex, with Required Insert Count absIndex+1 and Base equal to
// it. maxTableCapacity is the decoder's SETTINGS_QPACK_MAX_TABLE_CAPACITY,
// from which the prefix's Required Insert Count is encoded (§4.5.1.1); it
// must be at least 32, since a table below one entry cannot be referenced.
// A decoder that holds the entry decodes the section to that one field.
// The encoding only reaches entries at most floor(maxTableCapacity/32)
// below the decoder's insert count; an older index wraps around to a
// newer entry (§4.5.1.1), but no table still holds such an entry.
func Probe(absIndex, maxTableCapacity uint64) []byte {
	maxEntries := maxTableCapacity / 32
	if maxEntries == 0 {
		panic("ngqpack: Probe of a table with no room for an entry")
	}
	ric := absIndex + 1
	enc := ric%(2*maxEntries) + 1
	b := hcode.AppendInt(nil, 8, 0, enc)  // Encoded Required Insert Count
	b = append(b, 0x00)                   // S = 0, Delta Base = 0: Base = RIC
	return hcode.AppendInt(b, 6, 0x80, 0) // '1', T = 0 (dynamic), relative index 0 = Base-1-absIndex
}
