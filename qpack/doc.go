// Package qpack encodes and decodes HTTP/3 field sections (QPACK, RFC
// 9204) to and from mdelem batches, with a dynamic table, without
// allocating in steady state.
//
// # Decoding
//
// Make one [Decoder] per connection, with the
// SETTINGS_QPACK_MAX_TABLE_CAPACITY and SETTINGS_QPACK_BLOCKED_STREAMS you
// advertise. Feed it the peer's encoder stream as it arrives, decode each
// request stream's HEADERS payload, and write what it has for the decoder
// stream:
//
//	dec := qpack.NewDecoder(4096, 16)
//	err := dec.WriteEncoderStream(encoderStreamBytes) // any fragmentation
//	batch := mdelem.NewBatch(16, 1024)
//	switch err := dec.Decode(batch, streamID, headersPayload); {
//	case err == qpack.ErrBlocked:
//		// keep headersPayload; decode it again when
//		// dec.AppendUnblocked lists streamID
//	case qpack.IsStreamError(err):
//		// over a limit: reset the stream
//	case err != nil:
//		// close the connection with err.(*qpack.Error).Code
//	}
//	decoderStream = dec.AppendDecoderStream(decoderStream[:0])
//
// A stream abandoned before its section is decoded is passed to
// [Decoder.CancelStream]. The fields stay valid until the batch is Reset.
//
// # Encoding
//
// Make one [Encoder] per connection, shared by its streams. Once the
// peer's SETTINGS arrive, [Encoder.SetPeerSettings] lets it use a dynamic
// table; until then it uses the static table only. [Encoder.AppendSection]
// appends a batch's section, and the encoder-stream instructions it
// needs, to buffers you reuse:
//
//	enc := qpack.NewEncoder()
//	enc.SetPeerSettings(peerCapacity, peerBlockedStreams)
//	section, encStream = enc.AppendSection(section[:0], encStream[:0], streamID, batch)
//	// write encStream on the encoder stream, then section in a HEADERS frame
//	err := enc.WriteDecoderStream(decoderStreamBytes)
//
// # Limits and errors
//
// The Decoder bounds a section's size as RFC 9114 §4.2.2 counts it
// ([Decoder.SetMaxFieldSectionSize]), its number of fields and the
// length of a string. As everywhere in this module, 0 means the default
// and a negative value no limit. Going over a limit is a stream error
// ([IsStreamError]): the table is unaffected. Every other error is an
// [*Error] with the byte offset, the reason and the HTTP/3 error code
// the connection must close with: QPACK_DECOMPRESSION_FAILED for a
// section, QPACK_ENCODER_STREAM_ERROR and QPACK_DECODER_STREAM_ERROR for
// the two streams. Strings on the encoder stream are bounded by the table
// capacity, and an instruction split over writes buffers no more.
//
// # Where this differs from other implementations
//
// RFC 9204 leaves some choices open; interop/nghttp3's differential test
// accepts these differences from nghttp3 and no others:
//   - a Required Insert Count above what the section's references need is
//     QPACK_DECOMPRESSION_FAILED here (§2.2.1 allows it; nghttp3 decodes
//     the section);
//   - an insert whose length prefixes show it cannot fit the table fails
//     at once, before its bytes arrive; nghttp3 waits for the whole
//     instruction (§3.2.2, §4.3). An invalid Huffman-coded name, on the
//     other hand, fails here once its instruction is whole;
//   - string limits are this package's (§7.4): nghttp3 has its own;
//   - a Stream Cancellation is sent only while a dynamic table may be in
//     use, and Insert Count Increments when AppendDecoderStream is called
//     (§4.4.2, §4.4.3);
//   - what the Encoder inserts and refers to is its own choice (§2.1).
//
// Building with -tags purego changes nothing here: this package uses no
// package unsafe; the Huffman coder it shares with package hpack has a
// pure-Go twin under that tag.
package qpack
