package quicgo

import (
	"fmt"
	"strings"
	"testing"

	"github.com/metapack/metapack/interop/quicgo/quicqpack"
	"github.com/metapack/metapack/mdelem"
)

// fillBatch resets b and appends fields to it, marking field i sensitive
// where sensitive[i] is set (sensitive may be nil).
func fillBatch(b *mdelem.Batch, fields []quicqpack.Field, sensitive []bool) error {
	b.Reset()
	for i, f := range fields {
		m := mdelem.From(mdelem.BorrowString(f.Name), mdelem.BorrowString(f.Value))
		if i < len(sensitive) && sensitive[i] {
			m = m.WithSensitive(true)
		}
		b.Append(m)
	}
	return b.Err()
}

// appendBatch appends b's fields to dst.
func appendBatch(dst []quicqpack.Field, b *mdelem.Batch) []quicqpack.Field {
	for i := range b.Len() {
		f := b.At(i)
		dst = append(dst, quicqpack.Field{Name: f.Name.String(), Value: f.Value.String()})
	}
	return dst
}

// diffFields describes the first difference between two field lists, or
// returns "" when they are equal.
func diffFields(got, want []quicqpack.Field) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("field %d: got %s, want %s", i, show(got[i]), show(want[i]))
		}
	}
	if len(got) != len(want) {
		return fmt.Sprintf("got %d fields, want %d", len(got), len(want))
	}
	return ""
}

// show quotes a field, cutting long names and values short.
func show(f quicqpack.Field) string {
	cut := func(s string) string {
		if len(s) > 60 {
			return fmt.Sprintf("%q...(%d bytes)", s[:60], len(s))
		}
		return fmt.Sprintf("%q", s)
	}
	return cut(f.Name) + ": " + cut(f.Value)
}

// hexHead formats the start of a section for an error message.
func hexHead(b []byte) string {
	var s strings.Builder
	for i, c := range b {
		if i == 48 {
			fmt.Fprintf(&s, "... (%d bytes)", len(b))
			break
		}
		fmt.Fprintf(&s, "%02x", c)
	}
	return s.String()
}

// errorLimit is how many differences one subtest reports before it stops.
const errorLimit = 5

// inputs runs f on each QIF's header sets, in a subtest qifs/qif=NAME that
// skips once when the corpus is absent, and on seeded random header lists
// (subtest random), which need no corpus. sensitive is nil for the QIFs.
func inputs(t *testing.T, f func(t *testing.T, lists [][]quicqpack.Field, sensitive [][]bool)) {
	t.Run("qifs", func(t *testing.T) {
		for _, w := range loadWorkloads(t) {
			t.Run("qif="+w.name, func(t *testing.T) { f(t, w.sets, nil) })
		}
	})
	t.Run("random", func(t *testing.T) {
		lists, sensitive := randomLists(2000, randomSeed)
		f(t, lists, sensitive)
	})
}
