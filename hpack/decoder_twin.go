package hpack

import "github.com/metapack/metapack/internal/twin"

// The decoder's side of the hooks through which package fuzz compares the
// unsafe hot paths with their pure-Go twins (see internal/twin).
func init() {
	twin.UseSafeDecoder = func(d any) { d.(*Decoder).safe = true }
}
