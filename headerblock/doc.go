// Package headerblock reads and writes HTTP/2 header blocks on
// golang.org/x/net/http2's Framer with metapack's HPACK codec, for
// servers, clients and proxies built on that Framer.
//
// The Framer's ReadMetaHeaders field takes only x/net's own decoder. Leave
// it nil, and hand each HEADERS frame that ReadFrame returns to a Reader:
//
//	r := headerblock.NewReader(hpack.NewDecoder(hpack.DefaultTableSize))
//	batch := mdelem.NewBatch(16, 1024)
//	for {
//		f, err := fr.ReadFrame()
//		...
//		if hf, ok := f.(*http2.HeadersFrame); ok {
//			batch.Reset()
//			truncated, err := r.ReadBatch(batch, fr, hf)
//			...
//		}
//	}
//
// The Reader reads the block's CONTINUATION frames, decodes the block,
// and checks it as x/net's Framer does with ReadMetaHeaders set, with
// x/net's errors. ReadBatch appends the fields to a batch without
// allocating; ReadMeta returns the *http2.MetaHeadersFrame x/net would.
// Reader.SetStreamErrors makes a stream error of what x/net ends the
// connection over although it concerns one stream. Limits follow the
// module's convention: 0 means the default and a negative value no limit.
//
// A Writer encodes a batch with metapack's Encoder and writes it as a
// HEADERS frame and the CONTINUATION frames the peer's
// SETTINGS_MAX_FRAME_SIZE needs; WriteBlock splits a block encoded
// elsewhere.
//
// # Differences from x/net's Framer
//
// The Reader decodes and checks frames as x/net does, but where RFC 7541
// or RFC 9113 asks for more, or where x/net ends a connection over a
// limit a legitimate peer may reach. Each difference has a name, which
// the differential tests use:
//
//   - SizeUpdateAfterField, TooManySizeUpdates, SecondSizeUpdate,
//     SizeUpdateRequired, IntegerBound: metapack's Decoder enforces RFC
//     7541 §4.2 and RFC 9113 §4.3.1 and §6.5.2 on dynamic table size
//     updates, and bounds integers at 2^32-1, where x/net accepts such
//     blocks (a ConnectionError(ErrCodeCompression); see compat/hpack).
//   - HuffmanAfterStop: once a list is over the limit or has an invalid
//     field, x/net stops decoding the Huffman strings of fields it does
//     not index, missing an invalid code there (RFC 7541 §5.2); the
//     Reader still rejects it, a ConnectionError(ErrCodeCompression).
//   - StringOverList: a name or value longer than MaxHeaderListSize makes
//     x/net end the connection with ErrCodeCompression. The Reader reports
//     the list as over the limit and decodes the rest of the block, so
//     only the stream is refused (RFC 9113 §10.5.1);
//     Reader.SetConnErrorOnLongString restores x/net's outcome.
//   - BlockBound: a block of more than SetMaxBlockFrames frames or
//     SetMaxBlockBytes bytes is a ConnectionError(ErrCodeEnhanceYourCalm)
//     (RFC 9113 §10.5). x/net bounds the bytes of a block only by what is
//     left of the list size, which leaves a flood of empty CONTINUATION
//     frames unbounded.
//   - FieldLimit: a list over the decoder's field limit
//     (hpack.Decoder.SetMaxFields) is reported as over MaxHeaderListSize.
//     x/net has no such limit, and NewReader(nil)'s decoder none either.
//   - UncheckedOverLimit: the decoder drops the fields past three times
//     MaxHeaderListSize, more than x/net can accept, unchecked, so that a
//     block cannot make a batch hold more. A field that alone takes the
//     list past that is reported as over the limit where x/net reports it
//     invalid when it is. Either way the stream is refused.
//
// The Cause of a StreamError is a *FieldError, where x/net's is an
// unexported type.
package headerblock
