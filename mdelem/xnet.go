package mdelem

import "golang.org/x/net/http2/hpack"

// AppendFromXnet appends x/net header fields to b, copying their strings
// into b's arena. Sensitive becomes the never-index flag.
func AppendFromXnet(b *Batch, fields []hpack.HeaderField) {
	for _, hf := range fields {
		b.Append(From(BorrowString(hf.Name), BorrowString(hf.Value)).WithSensitive(hf.Sensitive))
	}
}

// AppendXnet appends b's fields to dst as x/net header fields and returns the
// extended slice. Atoms convert without allocating; other strings are copied.
func AppendXnet(dst []hpack.HeaderField, b *Batch) []hpack.HeaderField {
	for _, f := range b.fields {
		dst = append(dst, hpack.HeaderField{Name: f.Name.String(), Value: f.Value.String(), Sensitive: f.Sensitive()})
	}
	return dst
}
