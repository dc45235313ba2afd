package hpack_test

import (
	"encoding/hex"
	"fmt"

	"github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// Decoding the first request of RFC 7541 Appendix C.3 and reading a
// well-known header in O(1).
func ExampleDecoder_Decode() {
	block, _ := hex.DecodeString("828684410f7777772e6578616d706c652e636f6d")

	dec := hpack.NewDecoder(hpack.DefaultTableSize) // one per connection
	batch := mdelem.NewBatch(16, 1024)              // reused: Reset between requests
	if err := dec.Decode(batch, block); err != nil {
		fmt.Println("decoding error:", err) // the connection must be closed
		return
	}
	for _, f := range batch.All() {
		fmt.Println(f)
	}
	if f, ok := batch.Get(staticdata.KeyAuthority); ok {
		fmt.Println("authority is", f.Value)
	}
	size, _ := dec.DynamicTableSize()
	fmt.Println("dynamic table size:", size)
	// Output:
	// :method: GET
	// :scheme: http
	// :path: /
	// :authority: www.example.com
	// authority is www.example.com
	// dynamic table size: 57
}

// Decoding a header block that arrives in two frames, HEADERS and
// CONTINUATION, split inside the :authority field.
func ExampleDecoder_DecodeFragment() {
	block, _ := hex.DecodeString("828684410f7777772e6578616d706c652e636f6d")
	headers, continuation := block[:8], block[8:]

	dec := hpack.NewDecoder(hpack.DefaultTableSize)
	batch := mdelem.NewBatch(16, 1024)
	if err := dec.DecodeFragment(batch, headers, false); err != nil {
		fmt.Println("decoding error:", err)
		return
	}
	fmt.Println("fields after HEADERS:", batch.Len())
	if err := dec.DecodeFragment(batch, continuation, true); err != nil { // END_HEADERS
		fmt.Println("decoding error:", err)
		return
	}
	fmt.Println("fields after CONTINUATION:", batch.Len())
	for _, f := range batch.All() {
		fmt.Println(f)
	}
	// Output:
	// fields after HEADERS: 3
	// fields after CONTINUATION: 4
	// :method: GET
	// :scheme: http
	// :path: /
	// :authority: www.example.com
}

// Encoding two header lists on one connection, and decoding them as the
// peer does.
func ExampleEncoder_AppendBlock() {
	enc := hpack.NewEncoder(hpack.DefaultTableSize) // the peer's SETTINGS value
	dec := hpack.NewDecoder(hpack.DefaultTableSize) // the peer's decoder
	batch := mdelem.NewBatch(8, 256)
	got := mdelem.NewBatch(8, 256)

	batch.Append(mdelem.From(staticdata.KeyMethod.Atom(), mdelem.BorrowString("GET")))
	batch.Append(mdelem.From(staticdata.KeyScheme.Atom(), mdelem.BorrowString("https")))
	batch.Append(mdelem.From(staticdata.KeyPath.Atom(), mdelem.BorrowString("/")))
	block := enc.AppendBlock(nil, batch)
	fmt.Printf("%x\n", block) // fields of the static table: one byte each
	if err := dec.Decode(got, block); err != nil {
		fmt.Println(err)
		return
	}

	batch.Append(mdelem.From(mdelem.BorrowString("x-request-id"), mdelem.BorrowString("42")))
	block = enc.AppendBlock(block[:0], batch)
	got.Reset()
	if err := dec.Decode(got, block); err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range got.All() {
		fmt.Println(f)
	}
	// Output:
	// 828784
	// :method: GET
	// :scheme: https
	// :path: /
	// x-request-id: 42
}

// Huffman coding "www.example.com", as in RFC 7541 Appendix C.4.1.
func ExampleAppendHuffmanString() {
	s := "www.example.com"
	enc := hpack.AppendHuffmanString(nil, s)
	fmt.Printf("%x (%d bytes)\n", enc, len(enc))

	dec, err := hpack.AppendHuffmanDecode(nil, enc, 0)
	fmt.Printf("%q %v\n", dec, err)
	// Output:
	// f1e3c2e5f23a6ba0ab90f4ff (12 bytes)
	// "www.example.com" <nil>
}
