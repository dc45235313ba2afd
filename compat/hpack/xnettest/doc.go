// Package xnettest runs golang.org/x/net/http2/hpack's own tests against
// the drop-in package github.com/metapack/metapack/compat/hpack (#18).
//
// It holds no code of its own outside its tests. TestXnetPortedTests finds
// x/net's module directory in the module cache, copies hpack_test.go,
// encode_test.go and tables_test.go into a temporary directory, rewrites
// them with go/ast into an external test package of the drop-in, and runs
// `go test` there. The copies are never written into this repository.
//
// The rewrite is mechanical. x/net's package and its tests are type-checked
// together with go/types; every reference to an exported package-level name
// of x/net's hpack becomes hpack.Name in the drop-in; four unexported
// helpers some tests call (initialHeaderTableSize, encodeTypeByte,
// appendVarInt and huffmanDecode) are replaced by shims written for the
// port (see shims in port_test.go), which go into shims_test.go; every
// other top-level test, benchmark or helper that uses an unexported name
// of x/net's package (staticTable, the decoder's dynTab, readVarInt, ...),
// declares a method on one of x/net's types, or uses a helper dropped for
// those reasons, is dropped, with the reason logged, and so are x/net's
// tests of the helpers the shims replace. A few ported tests that check behaviour
// the drop-in's package doc lists under "Differences from x/net" are kept
// but skipped, with the reason (see skipList in port_test.go).
//
// Set XNETTEST_KEEP to a directory to keep the ported files there for
// reading; run.sh does that and runs the test verbosely.
package xnettest
