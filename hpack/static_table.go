package hpack

import (
	"github.com/metapack/metapack/internal/tier"
)

// staticTable is this package's copy of the RFC 7541 static table, taken
// once from staticdata's read-only accessor, so that the hot paths index an
// array. staticTable[0] is unused.
var staticTable = func() (t [tier.TableLen + 1]tier.Entry) {
	for i := 1; i <= tier.TableLen; i++ {
		t[i], _ = tier.EntryAt(i)
	}
	return t
}()
