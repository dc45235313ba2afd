package hpack

import "github.com/metapack/metapack/internal/twin"

// The twins, for the differential tests and fuzz targets of package fuzz,
// which reach hpack only through its exported API.
func init() {
	twin.HuffmanEncode = appendHuffmanStringSafe
	twin.UseSafeEncoder = func(e any) { e.(*Encoder).safe = true }
}
