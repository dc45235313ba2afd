package hpack

import (
	"fmt"
	"github.com/metapack/metapack/internal/tier"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/metapack/metapack/intern"
	"github.com/metapack/metapack/mdelem"
)

// internOutcome decodes block with a fresh decoder (configure, if not nil,
// sets it up) and describes each field's name: its string, its kind, and
// for an atom its pointer, so that two outcomes are equal only when the
// same names come back as the same atoms.
func internOutcome(t *testing.T, block []byte, configure func(*Decoder)) string {
	t.Helper()
	d := NewDecoder(DefaultTableSize)
	if configure != nil {
		configure(d)
	}
	b := mdelem.NewBatch(0, 0)
	if err := d.Decode(b, block); err != nil {
		t.Fatal(err)
	}
	var out string
	for _, f := range b.All() {
		out += fmt.Sprintf("%s %v %p; ", f.Name.String(), f.Name.Atom() != nil && tier.IsStatic(f.Name.Atom()), f.Name.Atom())
	}
	return out
}

// TestDecoderInterningIsolated sends 100,000 distinct random names to one
// decoder, then checks that another decoder's results, including which
// names come back interned, are exactly what they were before: the static
// names as the same atoms, the others as bytes. With
// per-connection tables (SetInterner) the same holds.
func TestDecoderInterningIsolated(t *testing.T) {
	// The probe's custom names are new each time it is sent, as a new
	// peer's would be: before the flood and after it, the same kinds of
	// names must come back the same way.
	probe := func(fresh string) []byte {
		var block []byte
		for _, name := range []string{":path", "content-type", "x-custom-" + fresh, "x-other-" + fresh} {
			block = append(block, literal(0x00, name, "v", true)...)
		}
		return block
	}
	perConnection := func(d *Decoder) {
		d.SetInterner(intern.New(intern.Limits{MaxEntries: 64, MaxBytes: 8 << 10, MaxLen: 64}))
	}
	before := internOutcome(t, probe("a"), nil)
	beforePer := internOutcome(t, probe("a"), perConnection)

	// The flood: one connection, 100,000 distinct names, Huffman-coded and
	// not, a thousand a block, on the default decoder and on one with a
	// table of its own.
	r := rand.New(rand.NewPCG(17, 4))
	for _, configure := range []func(*Decoder){nil, perConnection} {
		flood := NewDecoder(DefaultTableSize)
		flood.SetMaxFields(-1)
		flood.SetMaxHeaderListSize(-1)
		if configure != nil {
			configure(flood)
		}
		b := mdelem.NewBatch(0, 0)
		for i := 0; i < 100_000; i += 1000 {
			var block []byte
			for j := range 1000 {
				block = append(block, literal(0x00, fmt.Sprintf("x-%d-%x", i+j, r.Uint64()), "v", j%2 == 0)...)
			}
			b.Reset()
			if err := flood.Decode(b, block); err != nil {
				t.Fatal(err)
			}
		}
	}

	// Static and registered names are the same atoms; the new custom
	// names come back as they did (without pointers, which differ).
	after := internOutcome(t, probe("b"), nil)
	if strings.ReplaceAll(kinds(after), "-b ", "-a ") != kinds(before) || after[:strings.Index(after, "x-custom")] != before[:strings.Index(before, "x-custom")] {
		t.Errorf("after the flood another decoder gives\n%s\nbefore\n%s", after, before)
	}
	afterPer := internOutcome(t, probe("b"), perConnection)
	// Per-connection tables are new atoms each time: compare kinds alone.
	if strings.ReplaceAll(kinds(afterPer), "-b ", "-a ") != kinds(beforePer) {
		t.Errorf("per connection, after the flood\n%s\nbefore\n%s", afterPer, beforePer)
	}
}

// kinds keeps the names and kinds of an internOutcome, without pointers.
func kinds(outcome string) string {
	var out []byte
	skip := false
	for i := 0; i < len(outcome); i++ {
		switch c := outcome[i]; {
		case c == '0' && i+1 < len(outcome) && outcome[i+1] == 'x':
			skip = true
		case c == ';':
			skip = false
			out = append(out, c)
		case !skip:
			out = append(out, c)
		}
	}
	return string(out)
}
