// Package twin connects this module's tests to the pure-Go twins of
// package hpack's unsafe hot paths. Both implementations are compiled into
// every build; hpack sets these variables at init, so that the
// differential tests and fuzz targets in package fuzz, which can reach
// only hpack's exported API, can compare the two on every input.
//
// Nothing outside the module can import this package, and nothing in it is
// used by the codec itself.
package twin

var (
	// UseSafeDecoder switches an *hpack.Decoder to its pure-Go twins for
	// the rest of its life. It takes the decoder as an any because this
	// package cannot import hpack.
	UseSafeDecoder func(d any)
)
