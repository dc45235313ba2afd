package hpack

import (
	"strings"

	"github.com/metapack/metapack/mdelem"
)

// AppendToBatch appends fields to b, copying their strings into b's
// arena, with Sensitive as the never-index flag: the step from code that
// builds HeaderFields to metapack's hpack.Encoder. A nil b is ignored.
func AppendToBatch(b *mdelem.Batch, fields []HeaderField) {
	if b == nil {
		return
	}
	for _, hf := range fields {
		b.Append(mdelem.From(mdelem.BorrowString(hf.Name), mdelem.BorrowString(hf.Value)).WithSensitive(hf.Sensitive))
	}
}

// AppendFromBatch appends b's fields to dst as HeaderFields and returns
// the extended slice: the step from metapack's hpack.Decoder to code that
// takes HeaderFields. The strings are the caller's to keep after b is
// Reset. Atoms are their canonical strings; all other bytes are copied
// into one new string that the fields share, so a batch costs at most
// one allocation besides dst's growth. A nil b appends nothing.
func AppendFromBatch(dst []HeaderField, b *mdelem.Batch) []HeaderField {
	if b == nil {
		return dst
	}
	n := 0
	for i := range b.Len() {
		f := b.At(i)
		n += copiedLen(f.Name) + copiedLen(f.Value)
	}
	var sb strings.Builder
	sb.Grow(n)
	for i := range b.Len() {
		f := b.At(i)
		for _, s := range [2]mdelem.Str{f.Name, f.Value} {
			if s.Atom() == nil {
				sb.Write(s.UnsafeBytes())
			}
		}
	}
	all := sb.String()
	str := func(s mdelem.Str) string {
		if a := s.Atom(); a != nil {
			return a.String()
		}
		v := all[:s.Len()]
		all = all[s.Len():]
		return v
	}
	for i := range b.Len() {
		f := b.At(i)
		name := str(f.Name)
		dst = append(dst, HeaderField{Name: name, Value: str(f.Value), Sensitive: f.Sensitive()})
	}
	return dst
}

// copiedLen is the bytes of s that AppendFromBatch copies.
func copiedLen(s mdelem.Str) int {
	if s.Atom() != nil {
		return 0
	}
	return s.Len()
}
