// Package huffdata holds the generated RFC 7541 Huffman tables in the forms
// package hpack's encoder and decoder read them: per-byte codes, lengths and
// multipliers for encoding, and a 13-bit first-level decode table with two
// tables for longer codes.
//
// The tables are internal so that no code outside this module can write to
// them. The hpack encoder advances its output by lengths it reads from
// them, and its decoder writes by counts it reads from them; their
// soundness rests on the values the generator checks (see gen/), so they
// must never change at run time. The layout of their entries is defined in
// package tabledef, which the generator reads too.
//
// Everything here but layout.go is written by ../../gen: run
// go generate ./staticdata.
package huffdata
