package headerblock_test

import (
	"bytes"
	"testing"

	"github.com/metapack/metapack/headerblock"
	"golang.org/x/net/http2"
)

// framerListSizes maps three bits of FuzzFramer's control word to a
// Framer.MaxHeaderListSize: x/net's default, and limits blocks go over.
var framerListSizes = [...]uint32{0, 16, 40, 64, 100, 200, 1000, 1 << 31}

// FuzzFramer writes up to three of the fuzzer's header blocks (joined
// with ff 00 ff) as HEADERS and CONTINUATION frames, split, flagged and
// interleaved as ctl says, and reads them as the differential test does:
// with x/net's Framer (ReadMetaHeaders set) and with a Framer and a
// Reader, in both forms. Each ReadFrame must agree, or the disagreement
// must be one of the named differences.
//
// ctl: bits 0-2 list size, bit 3 a PING between blocks, bit 4 a table
// size SETTINGS before the second block (value from bits 5-6), bit 7
// the second block's CONTINUATION on the wrong stream, bit 8 a flood of
// empty CONTINUATION frames in the first block, bits 16 on the split.
func FuzzFramer(f *testing.F) {
	for i, b := range framerSeeds {
		f.Add([]byte(b), uint64(i)*0x9e3779b97f4a7c15)
	}
	w := newConnWriter()
	f.Add(w.encode(":method", "POST", ":path", "/a.B/C", "content-type", "application/grpc", "x-a", "b"), uint64(1)<<16)
	f.Fuzz(func(t *testing.T, data []byte, ctl uint64) {
		wire := framerWire(data, ctl)
		if msg := runConn(wire, connConfig{maxList: framerListSizes[ctl&7]}, nil); msg != "" {
			t.Fatalf("ctl %#x, wire %x: %s", ctl, wire, msg)
		}
	})
}

// framerSeeds cover the categories of headerblock's differential test:
// invalid names and values, pseudo-header fields out of place, size
// updates, strings and lists over the limit, Huffman after a dropped
// field, and CONTINUATION frames (three blocks joined with ff 00 ff).
var framerSeeds = []string{
	"\x00\x01A\x01b\x82",                                     // uppercase name
	"\x00\x01/\x01b",                                         // a static value as a name
	"\x00\x00\x01b",                                          // empty name
	"\x00\x01x\x03a\x00b",                                    // NUL in a value
	"\x00\x01x\x01\t\x00\x01y\x01\xff",                       // tab, 0xff: valid
	"\x00\x01a\x01b\x82",                                     // pseudo after regular
	"\x82\x82\x00\x05:fooo\x01x",                             // repeated, unknown pseudo
	"\x82\x88\x00\x09:protocol\x01w",                         // mixed, :protocol
	"\x82\x20\xff\x00\xff\x20\x20\x20\x82",                   // size updates misplaced
	"\x40\x01a\x01b\xff\x00\xff\x3f\xe1\x1f\x3f\xe1\x1f\xbe", // second size update
	"\x3f\x80\x80\x80\x80\x80\x80\x00\x82",                   // integer bound
	"\x00\x01x\x7faaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	"\x00\x07trailer\x05a,b,c\x82\x82\x82",         // trailer accounting
	"\x00\x01A\x01b\x00\x01x\x81\xff",              // invalid Huffman after an invalid field
	"\x82\x84\x86\xff\x00\xff\x82\xff\x00\xff\xbe", // blocks in a row
}

// framerWire builds the frames.
func framerWire(data []byte, ctl uint64) []byte {
	var buf bytes.Buffer
	fr := http2.NewFramer(&buf, nil)
	fr.AllowIllegalWrites = true
	for i, block := range bytes.SplitN(data, []byte{0xff, 0x00, 0xff}, 3) {
		stream := uint32(2*i + 1)
		if i > 0 && ctl&(1<<3) != 0 {
			fr.WritePing(false, [8]byte{})
		}
		if i == 1 && ctl&(1<<4) != 0 {
			sizes := [...]uint32{0, 100, 4096, 65536}
			fr.WriteSettings(http2.Setting{ID: http2.SettingHeaderTableSize, Val: sizes[ctl>>5&3]})
		}
		frags := splitFrags(block, ctl>>16+uint64(i))
		fr.WriteHeaders(http2.HeadersFrameParam{StreamID: stream, BlockFragment: frags[0], EndStream: i%2 == 0, EndHeaders: len(frags) == 1})
		if i == 0 && ctl&(1<<8) != 0 && len(frags) > 1 {
			for range 2 * headerblock.DefaultMaxBlockFrames { // over the bound for small list limits
				fr.WriteContinuation(stream, false, nil)
			}
		}
		for j, frag := range frags[1:] {
			s := stream
			if i == 1 && ctl&(1<<7) != 0 {
				s += 2
			}
			fr.WriteContinuation(s, j == len(frags)-2, frag)
		}
	}
	return buf.Bytes()
}

// splitFrags cuts b into fragments of 1 to 7 bytes drawn from seed; an
// empty b is one empty fragment.
func splitFrags(b []byte, seed uint64) [][]byte {
	frags := [][]byte{}
	for len(b) > 0 || len(frags) == 0 {
		n := min(int(seed%7)+1, len(b))
		seed = seed*6364136223846793005 + 1442695040888963407
		frags = append(frags, b[:n])
		b = b[n:]
	}
	return frags
}
