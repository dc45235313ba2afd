// Package hcode holds the primitive codings HPACK (RFC 7541 §5) and QPACK
// (RFC 9204 §4.1) share: prefix integers, the Huffman code and string
// literals, each with the prefix size the caller gives. Building with
// -tags purego leaves out package unsafe: the Huffman coder is then its
// bounds-checked twins.
package hcode
