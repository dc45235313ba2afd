// Package hpack encodes and decodes HTTP/2 header blocks (RFC 7541) to and
// from mdelem batches, without allocating in steady state. For
// golang.org/x/net/http2/hpack's API on the same codec, use
// github.com/metapack/metapack/compat/hpack instead.
//
// # Decoding a header block
//
// Make one [Decoder] per connection (per direction), with the
// SETTINGS_HEADER_TABLE_SIZE you advertise, and one batch that you Reset
// between header lists. [Decoder.Decode] appends the fields of a whole
// header block to the batch (see the example of Decoder.Decode):
//
//	dec := hpack.NewDecoder(hpack.DefaultTableSize)
//	batch := mdelem.NewBatch(16, 1024)
//	err := dec.Decode(batch, block)
//
// The fields stay valid until the batch is Reset. Well-known names come
// back as atoms: batch.Get(staticdata.KeyAuthority) finds one without comparing
// bytes.
//
// # Streaming fragments
//
// A header block can span a HEADERS frame and CONTINUATION frames.
// [Decoder.DecodeFragment] takes their payloads one at a time, with last
// set on the END_HEADERS frame's, and appends each field as soon as it is
// whole. Nothing needs to be joined first: the bytes of a field split
// between frames are kept until it is whole, and the work stays linear in
// the block's size (see the example of Decoder.DecodeFragment).
//
// # Encoding
//
// Make one [Encoder] per connection (per direction), with the peer's
// SETTINGS_HEADER_TABLE_SIZE. [Encoder.AppendBlock] appends the header
// block of a batch's fields to a buffer you reuse (see the example of
// Encoder.AppendBlock):
//
//	enc := hpack.NewEncoder(hpack.DefaultTableSize)
//	buf = enc.AppendBlock(buf[:0], batch)
//
// Mark a field with mdelem.Field.WithSensitive to keep it out of every
// dynamic table (RFC 7541 §7.1.3); authorization, proxy-authorization and
// short cookies are kept out by default.
//
// # Settings and limits
//
// The names follow x/net's where the meaning is the same:
// [Decoder.SetAllowedMaxDynamicTableSize] records a new
// SETTINGS_HEADER_TABLE_SIZE once the peer has acknowledged it (it bounds
// the peer's size updates), [Encoder.SetMaxDynamicTableSize] takes the
// peer's, [Encoder.SetMaxDynamicTableSizeLimit] caps what the encoder uses
// whatever the peer allows, and [Decoder.SetMaxStringLength] bounds one
// name or value. Unlike x/net's, the decoder requires the size updates RFC
// 7541 §4.2 calls for, and only at the start of a block.
//
// Limits are on by default and enforced while decoding: header list size
// (RFC 9113 counting, [Decoder.SetMaxHeaderListSize]), field count
// ([Decoder.SetMaxFields]), string length, and integer size. Going over
// the list, field or string limit returns a [*DecodingError] for which
// [IsStreamError] is true: the block was still decoded, the decoder stays
// in sync with its peer, and resetting the stream is enough. Any other
// error is a [*DecodingError] carrying the byte offset and the reason; it
// poisons the decoder,
// since HTTP/2 then requires closing the connection with
// COMPRESSION_ERROR.
//
// # Interning
//
// Names that are static-tier or registered strings become atoms, and so do
// the values of a set of low-cardinality keys ([Decoder.SetInterner]).
// Other strings are copied into the batch's arena, or interned in a table
// of the decoder's own ([Decoder.SetInterner]): what one peer sends never
// changes what another connection's decoder interns.
//
// # The encoder's tables
//
// Static-table matches come from staticdata's generated lookups, and names
// and values held as atoms need no hashing; the dynamic table has a compact
// hash index over its ring. The default indexing policy never indexes
// authorization, proxy-authorization, short cookies or fields marked
// sensitive, skips entries over 3/4 of the table, and indexes a value on
// its second sighting (or at once for names whose values tend to repeat),
// so that values that never repeat do not evict ones that do. Huffman
// coding is used only when strictly shorter.
//
// # Huffman coding
//
// [AppendHuffmanString] and [HuffmanEncodeLength] match the functions of the
// same names in golang.org/x/net/http2/hpack; [AppendHuffmanDecode] and
// [AppendHuffmanDecodeLimit] decode into a caller's buffer. The decoder
// reads its input through a 64-bit bit buffer and a generated 13-bit table
// that yields up to two symbols per lookup; codes longer than 13 bits go
// through two small generated tables. Each 8-byte refill is followed by
// three lookups without checks; an entry for a long code consumes nothing,
// so it stalls them, and runs of long codes (binary data) decode one symbol
// per step with no branch on the code's length. The last bytes of the input
// are decoded from registers, followed by ones: they decode to EOS exactly
// where the padding starts, which is how the padding is checked. Text
// decoding is bound by the latency of one lookup after another, about 8
// cycles each on amd64.
//
// # Safety
//
// Only the Huffman codec uses package unsafe, in three files built without
// the purego tag: huffman_decode_unsafe.go and huffman_decode_tail_unsafe.go
// (the decoder's rounds, steps and tail, which read and write through
// pointers) and huffman_encode_unsafe.go (the encoder's unaligned 8-byte
// stores and table reads without bounds checks). Each use states, in a
// SAFETY comment, the invariant that keeps it inside its buffers and the
// tests that guard it; among them, tests that place every input and output
// against an unmapped page (internal/guardpage), which is where a read one
// byte too far faults.
//
// Each of these paths has a pure-Go twin, appendHuffmanDecodeSafe and
// appendHuffmanStringSafe, compiled into every build. Differential tests
// and the fuzz targets FuzzHuffmanTwins, FuzzDecodeTwins and
// FuzzEncodeTwins check that the two agree on every byte and every error.
// Building with -tags purego puts the twins in their place: the package
// then does not import unsafe at all. The Huffman tables the fast paths
// trust live in internal/huffdata, out of reach of other modules.
package hpack
