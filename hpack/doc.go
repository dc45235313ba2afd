// Package hpack encodes and decodes HTTP/2 header blocks (RFC 7541) to and
// from mdelem batches, without allocating in steady state.
//
// # Decoding
//
// Make one [Decoder] per connection and direction, with the
// SETTINGS_HEADER_TABLE_SIZE you advertise, and one batch that you Reset
// between header lists. [Decoder.Decode] appends the fields of a whole
// header block to the batch:
//
//	dec := hpack.NewDecoder(hpack.DefaultTableSize)
//	batch := mdelem.NewBatch(16, 1024)
//	if err := dec.Decode(batch, block); err != nil { ... }
//	authority, ok := batch.Get(staticdata.KeyAuthority)
//
// The fields stay valid until the batch is Reset. A block split over
// HEADERS and CONTINUATION frames can be passed a frame payload at a time
// to [Decoder.DecodeFragment], with last set on the final one.
//
// # Encoding
//
// Make one [Encoder] per connection and direction, with the peer's
// SETTINGS_HEADER_TABLE_SIZE. [Encoder.AppendBlock] appends the header
// block of a batch to a buffer you reuse:
//
//	enc := hpack.NewEncoder(hpack.DefaultTableSize)
//	buf = enc.AppendBlock(buf[:0], batch)
//
// Fields marked with mdelem.Field.WithSensitive are never indexed (RFC 7541
// §7.1.3); neither, by default, are authorization, proxy-authorization and
// short cookies (see [Encoder.SetIndexCredentials]).
//
// # Limits and errors
//
// The decoder bounds the header list size ([Decoder.SetMaxHeaderListSize]),
// the number of fields ([Decoder.SetMaxFields]) and the length of a string
// ([Decoder.SetMaxStringLength]). For every limit in this module 0 means
// the default and a negative value no limit. Going over one is a stream
// error ([IsStreamError]): the decoder stays in sync, and resetting the
// stream is enough. Any other [*DecodingError] carries the byte offset and
// the reason, and the connection must be closed with COMPRESSION_ERROR.
//
// Table size settings follow x/net's names:
// [Decoder.SetAllowedMaxDynamicTableSize] records the size you advertised
// once the peer acknowledged it, [Encoder.SetMaxDynamicTableSize] takes the
// peer's, and [Encoder.SetMaxDynamicTableSizeLimit] caps what the encoder
// uses.
//
// # Other APIs
//
// Package github.com/metapack/metapack/compat/hpack offers x/net's
// golang.org/x/net/http2/hpack API on this codec, as a drop-in
// replacement. Package github.com/metapack/metapack/headerblock reads and
// writes header blocks through an x/net http2.Framer. [AppendHuffmanString]
// and [AppendHuffmanDecode] code single strings (RFC 7541 §5.2).
//
// Building with -tags purego leaves out package unsafe: the Huffman coder
// then runs on bounds-checked code that gives the same results.
package hpack
