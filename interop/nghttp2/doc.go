// Package nghttp2 holds differential tests of package hpack against the
// HPACK codec of nghttp2's C library, in both directions: hpack.Encoder's
// blocks decoded by nghttp2's inflater, and nghttp2's deflater's blocks
// decoded by hpack.Decoder. After every block the decoded lists and the
// dynamic tables (entries, size and maximum) of all sides must agree.
//
// It is a module of its own, so that go test ./... at the repository root
// needs no C library. The tests need the build tag nghttp2 and
// libnghttp2-dev; without them they skip. ci.sh installs the library and
// runs them.
package nghttp2
