package hpack

import "github.com/metapack/metapack/mdelem"

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
	var buf [64]string // on the stack for up to 32 fields
	strs := b.AppendStrings(buf[:0])
	for i := range b.Len() {
		dst = append(dst, HeaderField{Name: strs[2*i], Value: strs[2*i+1], Sensitive: b.At(i).Sensitive()})
	}
	return dst
}
