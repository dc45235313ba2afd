package hpack

import "github.com/metapack/metapack/mdelem"

// AppendToBatch appends fields to b, copying their strings into b's
// arena, with Sensitive as the never-index flag: the step from code that
// builds HeaderFields to metapack's hpack.Encoder. Names in the static
// table become its atoms. A nil b is ignored.
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
// takes HeaderFields. Atoms (static and interned strings) cost no
// allocation; other strings are copied. A nil b appends nothing.
func AppendFromBatch(dst []HeaderField, b *mdelem.Batch) []HeaderField {
	if b == nil {
		return dst
	}
	for i := range b.Len() {
		f := b.At(i)
		dst = append(dst, HeaderField{Name: f.Name.String(), Value: f.Value.String(), Sensitive: f.Sensitive()})
	}
	return dst
}
