// Package qpack is a drop-in replacement for github.com/quic-go/qpack
// v0.6.0, the QPACK package quic-go's http3 uses, on metapack's codec.
//
// It has the same names, signatures and behaviour: HeaderField,
// NewDecoder and Decoder.Decode, which returns a DecodeFunc giving one
// field per call and io.EOF after the last, and NewEncoder, whose
// Encoder.WriteField writes each field in one Write and whose
// Encoder.Close ends the field section. The errors are those of
// quic-go/qpack, with the same messages. Like quic-go/qpack it uses the
// static table only: that API has no encoder or decoder streams.
// Package github.com/metapack/metapack/qpack is the codec with a dynamic
// table.
//
// To use it under quic-go unchanged, replace the module: the module in
// this package's directory forward, whose path is
// github.com/quic-go/qpack, forwards every name here (see the
// repository's README for the go.mod lines).
//
// A Decoder and an Encoder cost nothing between sections: each borrows a
// metapack codec from a pool for one section. A DecodeFunc allocates the
// decoded names and values that are not in the static table or among
// the well-known names as one string per section, where quic-go/qpack
// allocates one per string.
//
// # Differences from quic-go/qpack
//
//   - The encoder Huffman-codes a string only where that is shorter
//     (RFC 7541 §5.2 leaves the choice to the encoder); quic-go/qpack
//     always does. Both decode the other's output.
//   - The credentials among the static entries, "authorization" and
//     "cookie" with empty values, go as literals with the N bit set, as
//     every credential does here, never as Indexed Field Lines, so that
//     an intermediary does not index them (RFC 9204 §4.5.4, §7.1).
//   - A section prefix whose Base is below zero (a sign bit with a Delta
//     Base of 0, 0x00 0x80) is an error here, as RFC 9204 §4.5.1.2
//     requires; quic-go/qpack ignores the sign bit.
//   - An integer above 2^62-1 is "varint integer overflow" here (RFC 9204
//     §4.1.1 needs no more); quic-go/qpack reads on to 2^63, and then
//     refuses the index or length it gets. Both refuse the section.
//   - The decoder reports the first error after the fields before it, as
//     quic-go/qpack does, but it reads the whole section at the first
//     call: a DecodeFunc holds no reference to the section after that.
package qpack
