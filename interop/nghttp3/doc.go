// Package nghttp3 holds differential tests of package qpack against the
// QPACK codec of nghttp3's C library (libnghttp3 0.8.0), in both
// directions: qpack.Encoder's sections and encoder stream decoded by
// nghttp3's decoder, and nghttp3's encoder's decoded by qpack.Decoder,
// each decoder's decoder stream fed back to its encoder. The streams are
// cut at random fragment boundaries, sections arrive before the inserts
// they need (and block, then resume), acknowledgments are held back in
// batches, and streams are cancelled. After every section the decoded
// fields must agree exactly (names, values, order and the N bit), and the
// insert counts and dynamic tables of all sides must agree.
//
// nghttp3 exposes neither side's dynamic table nor its encoder's insert
// count. Its decoder's table is read by probes (ngqpack.Table): a fresh
// nghttp3 decoder is fed the encoder stream so far, then decodes, for
// each absolute index the other side's table holds, a section of one
// indexed field line referencing that entry, and must reject the probe of
// the entry below the oldest (evicted). nghttp3's encoder's table is
// compared through its decoder's, which is fed the same encoder stream.
//
// Every QIF of ../shared/qifs is also encoded by qpack.Encoder under the
// 16 offline-interop parameter sets and must decode back exactly with
// nghttp3's decoder.
//
// Differences allowed by RFC 9204, which the tests accept:
//
//   - Stream Cancellation (§4.4.2): nghttp3's decoder writes one for every
//     cancelled stream, also one with no section outstanding; an encoder
//     must accept it. The tests compare the encoders' state after it, not
//     the decoder-stream bytes.
//   - Insert Count Increment (§4.4.3) and Section Acknowledgment (§4.4.1)
//     timing is the decoder's choice, so decoder-stream bytes are not
//     compared between decoders, only their effect on the encoder.
//   - The encoders' choices (what to insert, when to reference, Huffman or
//     not, §2.1 and §4.5) differ; only what the sections decode to counts.
//
// It is a module of its own, so that go test ./... at the repository root
// needs no C library. The tests need the build tag nghttp3 and
// libnghttp3-dev; without them they skip. ci.sh installs the library and
// runs them.
package nghttp3
