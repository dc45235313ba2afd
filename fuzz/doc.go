// Package fuzz holds the project's native Go fuzz targets. It has no code of
// its own beyond this documentation; the targets live in the _test.go files.
//
// Targets:
//
//   - FuzzDecode: arbitrary bytes, split into fragments at points the fuzzer
//     chooses, with table sizes and limits it chooses, through our Decoder
//     and x/net's. Neither may panic or grow without bound; where x/net
//     decodes a block, ours must give the identical list, or the case must be
//     one of the intentional differences below.
//   - FuzzXnetToOurs: header lists built from the fuzzer's bytes, encoded by
//     x/net's Encoder (with SETTINGS changes), decoded by ours.
//   - FuzzHuffman: arbitrary bytes through our Huffman encoder and decoder:
//     round trips, and decoding agrees with x/net's on valid and invalid
//     input.
//   - FuzzRoundTrip (with the Encoder): lists encoded by ours decode to
//     themselves with both decoders.
//   - FuzzStringLimitSync: blocks through a decoder under the fuzzer's
//     string limit and one without: the limited one gives the same fields,
//     or a stream error with a prefix of them, and the dynamic tables stay
//     the same after every block.
//   - FuzzGrpcBase64, FuzzGrpcMessage and FuzzGrpcTimeout: grpcmeta's
//     binary-metadata base64 against encoding/base64 (padded and not),
//     grpc-message percent-decoding round trips with its encoder and never
//     fails, and grpc-timeout formatting round trips through ParseTimeout
//     without shortening a duration.
//
// hpack's FuzzHuffmanTwins (the Huffman kernels against their pure-Go
// twins), FuzzEncodeTwins (every string of the Encoder's blocks against the
// twin) and FuzzTableSync (the Encoder's and a Decoder's dynamic tables
// after every block) live in package hpack, beside the code they reach.
// headerblock's FuzzFramer lives in that package, beside the differential
// test whose harness and classifier it shares; CI fuzzes it too.
// intern's FuzzIntern (concurrent interning: one handle per string, the
// bounds hold) lives in that package, where it reads the table's charge.
//
// # Intentional differences from x/net
//
// Our decoder follows RFC 7541 more strictly than x/net's in a few places,
// and the differential targets accept exactly these, each checked by name:
//
//   - SizeUpdateAfterField: RFC 7541 §4.2 allows size updates only at the
//     start of a block. x/net lets one through after a field while its
//     table is empty; we reject it.
//   - TooManySizeUpdates: we reject a third size update in a row (only the
//     minimum and the final size are ever needed); x/net accepts any number
//     while its table is empty.
//   - SecondSizeUpdate: x/net rejects a second size update at the start of a
//     block when its table is not empty, although RFC 7541 §4.2 requires an
//     encoder to send two (the minimum, then the final size) in some cases;
//     we accept it.
//   - IntegerBound: we reject integers above 2^32-1 or with more than five
//     continuation bytes (RFC 7541 §5.1 leaves the bound to implementations);
//     x/net reads up to 2^63.
//
// # Running longer campaigns
//
// CI runs each target for a few seconds. To fuzz one target for longer:
//
//	go test ./fuzz -run '^$' -fuzz '^FuzzDecode$' -fuzztime 30m
//
// Crashers land in fuzz/testdata/fuzz/FuzzDecode/; commit each with its fix
// so that `go test ./fuzz` replays it. -parallel sets the worker count, and
// GOFLAGS=-fuzzminimizetime=... bounds minimization. Regenerate the seed
// corpora, built from the RFC examples, the adversarial cases and generated
// stories, with:
//
//	go test ./fuzz -run TestSeedCorpus -update
package fuzz
