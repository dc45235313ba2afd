// Package quicgo holds differential tests and benchmarks of package qpack
// against github.com/quic-go/qpack v0.6.0, the QPACK codec of quic-go's
// HTTP/3 stack, which has the static table only:
//
//   - quic-go/qpack's sections decode with qpack.Decoder to the fields it
//     was given, and qpack.Encoder's static-only sections (no
//     SetPeerSettings: a dynamic table of capacity 0) decode with
//     quic-go/qpack's decoder to ours;
//   - the inputs are the QIFs fb-req, fb-resp and netbsd of the QPACK
//     offline-interop corpus and seeded random header lists;
//   - TestByteCompat logs, without failing, how often the two encoders
//     write the same bytes, and their sizes;
//   - BenchmarkStatic times both codecs on the same corpus, static table
//     only: go test -run '^$' -bench BenchmarkStatic.
//
// The corpus is read from ../shared/qifs beside the checkout; without it
// the tests that need it skip, with one message, and the random lists
// still run. It is a module of its own, so that the repository's go.mod
// does not require quic-go/qpack; ci.sh runs its checks.
package quicgo
