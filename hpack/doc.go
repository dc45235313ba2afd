// Package hpack encodes and decodes HTTP/2 header blocks (RFC 7541) to and
// from mdelem batches, without allocating in steady state.
//
// # Decoding
//
// A [Decoder] mirrors one peer encoder's dynamic table. [Decoder.Decode]
// takes a whole header block; [Decoder.DecodeFragment] takes the payloads of
// a HEADERS frame and its CONTINUATION frames one at a time, in linear time.
// Well-known names, and those the application registers (RegisterNames),
// become atoms, so comparing them is a pointer compare; so do the values
// of a configurable set of low-cardinality keys. Other strings are copied
// into the batch's arena, or interned in a table of the decoder's own
// (Decoder.SetInterner): what one peer sends never changes what another
// connection's decoder interns.
//
// Limits are on by default and enforced while decoding: header list size
// (RFC 9113 counting), field count, string length, and integer size.
// Exceeding the list, field or string limit returns a [*LimitError], a stream error
// after which the decoder stays in sync with its peer. Any other error is a
// [*DecodingError] (or [*InvalidIndexError]) carrying the byte offset and the
// reason; it poisons the decoder, since HTTP/2 then requires closing the
// connection with COMPRESSION_ERROR.
//
// # Encoding
//
// An [Encoder] keeps the dynamic table the peer's decoder mirrors.
// [Encoder.AppendBlock] appends a batch's header block to a caller's buffer.
// Static-table matches come from generated tables, and names and values held
// as atoms need no hashing; the dynamic table has a compact hash index over
// its ring. The default indexing policy never indexes authorization,
// proxy-authorization, short cookies or fields marked sensitive, skips
// entries over 3/4 of the table, and indexes a value on its second sighting
// (or at once for names whose values tend to repeat), so that values that
// never repeat do not evict ones that do. [Encoder.setIndexPolicy] replaces it
// per field. Huffman coding is used only when strictly shorter.
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
