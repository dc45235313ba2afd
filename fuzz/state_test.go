package fuzz

import (
	"bytes"
	"fmt"

	"github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/mdelem"
)

// decodeState describes what decoding a block left: the fields (with
// their never-index marks), the error and the dynamic table.
func decodeState(d *hpack.Decoder, b *mdelem.Batch, err error) string {
	return fieldsState(d, fromBatch(b), err)
}

// fieldsState is decodeState for fields collected some other way.
func fieldsState(d *hpack.Decoder, fields []field, err error) string {
	var buf bytes.Buffer
	for _, f := range fields {
		fmt.Fprintf(&buf, "%q: %q %v\n", f.Name, f.Value, f.Sensitive)
	}
	fmt.Fprintf(&buf, "err %v\ntable %s", err, tableOf(d))
	return buf.String()
}
