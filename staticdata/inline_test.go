package staticdata

import (
	"testing"

	"github.com/metapack/metapack/internal/inlinecheck"
)

func TestInlining(t *testing.T) {
	inlinecheck.Check(t, ".", "LookupBytes", "LookupName", "LookupFieldAtoms", "PairHash", "KeyID.Atom", "bytesView", "phash", "MayBeAtom")
}
