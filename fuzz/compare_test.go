package fuzz

import (
	"errors"
	"strings"

	"github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/mdelem"
	xhpack "golang.org/x/net/http2/hpack"
)

// field is a decoded header field in a form both decoders can produce.
type field struct {
	Name, Value string
	Sensitive   bool
}

func fromBatch(b *mdelem.Batch) []field {
	out := make([]field, 0, b.Len())
	for _, f := range b.All() {
		out = append(out, field{f.Name.String(), f.Value.String(), f.Sensitive()})
	}
	return out
}

func fromXnet(hfs []xhpack.HeaderField) []field {
	out := make([]field, 0, len(hfs))
	for _, hf := range hfs {
		out = append(out, field{hf.Name, hf.Value, hf.Sensitive})
	}
	return out
}

func equalFields(a, b []field) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Fuzz limits: large enough that inputs of a fuzzer's size never reach them,
// so both decoders see the same stream.
const (
	fuzzMaxString = 1 << 20
	fuzzMaxList   = 1 << 30
	fuzzMaxFields = 1 << 20
)

func newOurDecoder(tableSize uint32) *hpack.Decoder {
	d := hpack.NewDecoder(tableSize)
	d.SetMaxStringLength(fuzzMaxString)
	d.SetMaxHeaderListSize(fuzzMaxList)
	d.SetMaxFields(fuzzMaxFields)
	return d
}

// difference names the intentional difference that explains a block x/net
// and we disagree on, or returns "" when none does.
func difference(ourErr, xnetErr error) string {
	switch {
	case ourErr != nil && xnetErr == nil:
		switch {
		case errors.Is(ourErr, hpack.ErrSizeUpdateNotFirst):
			return "SizeUpdateAfterField"
		case errors.Is(ourErr, hpack.ErrTooManySizeUpdates):
			return "TooManySizeUpdates"
		case errors.Is(ourErr, hpack.ErrIntegerOverflow):
			return "IntegerBound"
		}
	case ourErr == nil && xnetErr != nil:
		if strings.Contains(xnetErr.Error(), "dynamic table size update MUST occur at the beginning") {
			return "SecondSizeUpdate"
		}
	}
	return ""
}

// xnetDecode decodes one block with x/net's decoder, fed in the same
// fragments as ours.
func xnetDecode(d *xhpack.Decoder, frags [][]byte) ([]xhpack.HeaderField, error) {
	var out []xhpack.HeaderField
	d.SetEmitFunc(func(hf xhpack.HeaderField) { out = append(out, hf) })
	for _, f := range frags {
		if _, err := d.Write(f); err != nil {
			return out, err
		}
	}
	return out, d.Close()
}

// splitAt cuts b into fragments at positions drawn from seed.
func splitAt(b []byte, seed uint64) [][]byte {
	var frags [][]byte
	for len(b) > 0 {
		n := int(seed%7) + 1
		seed = seed*6364136223846793005 + 1442695040888963407
		n = min(n, len(b))
		frags = append(frags, b[:n])
		b = b[n:]
	}
	if len(frags) == 0 {
		frags = append(frags, nil)
	}
	return frags
}

// ourDecode decodes one block in fragments.
func ourDecode(d *hpack.Decoder, b *mdelem.Batch, frags [][]byte) error {
	for i, f := range frags {
		if err := d.DecodeFragment(b, f, i == len(frags)-1); err != nil {
			return err
		}
	}
	return nil
}
