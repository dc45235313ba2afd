// Package nghttp3 holds differential tests of package qpack against the
// QPACK codec of nghttp3's C library (libnghttp3 0.8.0), in both
// directions: qpack.Encoder's sections and encoder stream decoded by
// nghttp3's decoder, and nghttp3's encoder's decoded by qpack.Decoder,
// each decoder's decoder stream fed back to its encoder. The streams are
// cut at random fragment boundaries, sections arrive before the inserts
// they need (and block, then resume), acknowledgments are held back in
// batches, and streams are cancelled. Every section must decode to its
// list exactly (names, values, order, and the N bit on every sensitive
// field and on no other field but those the encoder's policy never
// indexes); no decoder may hold more blocked sections than it advertised;
// whenever the decoder has the whole encoder stream, the insert counts and
// dynamic tables of both sides must agree; qpack.Encoder must never evict
// an entry the decoder has not acknowledged (RFC 9204 §2.1.1); and at the
// end, with every byte delivered, no section may be left blocked, and
// nghttp3's encoder must count no stream that may still block (which
// checks qpack.Decoder's acknowledgments).
//
// nghttp3 exposes neither side's dynamic table nor its encoder's insert
// count. Its decoder's table is read by probes (ngqpack.Table): a fresh
// nghttp3 decoder is fed the encoder stream so far, then decodes, for
// each absolute index the other side's table holds, a section of one
// indexed field line referencing that entry, and must reject the probe of
// the entry below the oldest (evicted). nghttp3's encoder's table is
// compared through its decoder's, which is fed the same encoder stream.
//
// Every QIF of ../shared/qifs/qifs is also encoded by qpack.Encoder under the
// 16 offline-interop parameter sets and must decode back exactly with
// nghttp3's decoder.
//
// Malformed input (the corpus's encoded/errors files, and nghttp3's
// encoder's output with one byte changed or one record cut) must end the
// same way in both decoders: both accept and decode the same fields, or
// both fail with the same error code.
//
// Differences allowed by RFC 9204, which the tests accept and count:
//
//   - §2.2.1: a Required Insert Count larger than the section needs. A
//     decoder MAY reject it; qpack does (QPACK_DECOMPRESSION_FAILED),
//     nghttp3 decodes the section.
//   - §7.4, implementation limits: nghttp3 rejects a string length over
//     its own limit (NGHTTP3_ERR_QPACK_HEADER_TOO_LARGE) as soon as it
//     reads the length; qpack, whose limits the tests raise, finds the
//     section truncated or the length over its limit.
//   - §3.2.2 and §4.3, when an encoder-stream error is detected: qpack
//     rejects an insert as soon as its length prefixes show that it cannot
//     fit the table, nghttp3 only once the whole instruction has arrived,
//     so nghttp3 fails later (a section referencing an entry it evicted)
//     or never (the stream ends inside the instruction). Conversely
//     nghttp3 rejects an invalid Huffman-coded name as soon as the name is
//     complete, qpack when the whole instruction is; the test then checks
//     that qpack does reject it once the instruction is completed.
//   - §4.4.2: nghttp3's decoder writes a Stream Cancellation for every
//     cancelled stream, also one with no section outstanding, and an
//     encoder must accept it. Decoder-stream bytes are never compared
//     between decoders (when to send Insert Count Increments, §4.4.3, is
//     the decoder's choice), only their effect on the encoder.
//   - §2.1 and §4.5: the encoders' choices (what to insert, when to
//     reference, Huffman or not) differ; only what their sections decode
//     to counts.
//
// It is a module of its own, so that go test ./... at the repository root
// needs no C library. The tests need the build tag nghttp3 and
// libnghttp3-dev; without them they skip. ci.sh installs the library and
// runs them.
package nghttp3
