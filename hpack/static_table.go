package hpack

import sd "github.com/metapack/metapack/staticdata"

// staticTable is this package's copy of the RFC 7541 static table, taken
// once from staticdata's read-only accessor, so that the hot paths index an
// array. staticTable[0] is unused.
var staticTable = func() (t [sd.StaticTableLen + 1]sd.Entry) {
	for i := 1; i <= sd.StaticTableLen; i++ {
		t[i], _ = sd.StaticEntry(i)
	}
	return t
}()
