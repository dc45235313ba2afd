// Package tabledef holds what the generator in gen/ and the packages that
// read its tables must agree on: the pair hash of a static-table field,
// the per-field size overhead, the shape of the perfect hash over the
// static tier, and the bit layout of the Huffman decode tables (which
// strings are field names is package httpfield's rule). The generator computes its tables with these
// definitions and the codec reads the tables with them, so the two cannot
// drift apart.
//
// Nothing here is generated, so the generator builds whatever state the
// generated files are in.
package tabledef
