// Package hpack is a drop-in replacement for golang.org/x/net/http2/hpack
// built on metapack's codec: change the import path to
// github.com/metapack/metapack/compat/hpack and the code compiles and runs
// as before. Every exported name of x/net's package is here, with the
// same signature and documented behaviour, and ErrStringLength and
// ErrInvalidHuffman are the same values as metapack's hpack errors.
//
//	dec := hpack.NewDecoder(4096, func(f hpack.HeaderField) { ... })
//	dec.Write(headersPayload)      // fragments of any length
//	dec.Write(continuationPayload)
//	err := dec.Close()             // ends the block; reports a truncated one
//
// HeaderField, DecodingError and InvalidIndexError are x/net's own types.
//
// Static-table names and values, and the names a Decoder interns or
// caches, come back as strings that cost no allocation. Other values are
// copied into 512-byte slabs, one allocation for many (a value over 64
// bytes gets its own), and the strings are views of those copies: a
// short string the caller keeps keeps at most its slab alive
// (strings.Clone gives it memory of its own). A value the dynamic table indexed comes back as the
// string its literal made, with no allocation. Code that wants no
// allocation at all moves to metapack's hpack.Decoder and mdelem.Batch:
// AppendToBatch and AppendFromBatch convert between HeaderFields and
// batches.
//
// # Differences from x/net
//
// The drop-in rejects input that RFC 7541 and RFC 9113 forbid and x/net
// accepts:
//
//   - A dynamic table size update after a header field in the same block
//     (RFC 7541 §4.2) is a DecodingError; x/net accepts one while its
//     dynamic table is empty.
//   - After SetAllowedMaxDynamicTableSize lowers the bound below the
//     table's current maximum, the next block must start with a size
//     update no larger than the lowest bound given since the last block
//     (RFC 7541 §4.2, RFC 9113 §4.3.1); without it the block is a
//     DecodingError. x/net does not require the update; to get its
//     behaviour, call SetMaxDynamicTableSize with the new bound as well.
//   - More than two size updates at the start of a block, or a first one
//     above the lowest bound (RFC 7541 §4.2), are DecodingErrors.
//   - NewDecoder with a size above 4096 lets the peer use more than 4096
//     bytes of table only after it sends a size update, as its encoder
//     assumes HTTP/2's initial 4096 until then (RFC 9113 §6.5.2). x/net
//     takes the size at once; to get that, call SetMaxDynamicTableSize
//     with the same size after NewDecoder.
//   - After any error but ErrStringLength the Decoder is unusable (a
//     connection error, RFC 9113 §4.3): later calls return a DecodingError.
//
// Other differences callers can see:
//
//   - After ErrStringLength the Decoder stays usable: the over-limit field
//     and the ones after it in the block are not emitted, but the rest of
//     the block is still decoded, so the table stays in step, and the
//     Close or DecodeFull that ends the block returns ErrStringLength too:
//     HTTP/2 code can refuse the one stream rather than the connection.
//     Write reports it once the string's length is read, which can be a
//     Write later than x/net's. A negative SetMaxStringLength means no
//     limit, as in x/net (metapack's hpack.Decoder takes its default).
//   - A nil emit function discards the fields, and an Encoder with a nil
//     writer discards its output, as the zero Encoder does; in x/net all
//     three panic. The zero Decoder works as x/net's does.
//   - DecodingError.Err holds x/net's message for the conditions both
//     detect (truncated headers, invalid index, size update too large or
//     misplaced, varint overflow) and metapack's error otherwise.
//   - The Encoder indexes by metapack's policy (see metapack's
//     hpack.Encoder): authorization, proxy-authorization and short
//     cookies are sent never-indexed, so decoders report them Sensitive.
//     Its blocks differ from x/net's but decode to the same fields.
//   - SetMaxDynamicTableSizeLimit above 1 GiB is taken as 1 GiB.
//   - An integer above 2^32-1 is a DecodingError "varint integer
//     overflow" (every index and size fits 32 bits); x/net reads up to 63
//     bits and then fails on the index or size.
package hpack
