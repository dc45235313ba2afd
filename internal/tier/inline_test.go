package tier

import (
	"testing"

	"github.com/metapack/metapack/internal/inlinecheck"
)

// TestInlining checks what callers inline: the lookup's instantiations
// (into a call of its shaped body), the filter and the hash in full, and
// the accessors.
func TestInlining(t *testing.T) {
	inlinecheck.Check(t, ".", "Lookup[string]", "Lookup[[]uint8]", "LookupFieldAtoms", "ByID",
		"QPACKNameIndex", "QPACKLookupFieldAtoms", "QPACKEntryAt")
	inlinecheck.CheckPrefix(t, ".", "MayBeAtom[", "phash[")
}
