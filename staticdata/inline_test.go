package staticdata

import (
	"testing"

	"github.com/metapack/metapack/internal/inlinecheck"
)

func TestInlining(t *testing.T) {
	inlinecheck.Check(t, ".", "Lookup", "LookupBytes", "LookupName", "LookupNameBytes", "LookupFieldAtoms", "PairHash", "KeyID.Atom", "MayBeAtom", "MayBeAtomBytes")
	inlinecheck.CheckPrefix(t, ".", "phash[", "MayBeAtomOf[")
}
