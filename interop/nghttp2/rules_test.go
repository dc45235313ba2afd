//go:build nghttp2

package nghttp2

import (
	"slices"
	"testing"

	"github.com/metapack/metapack/interop/nghttp2/hd"
)

// hpackInt appends v as an RFC 7541 §5.1 integer with an n-bit prefix
// under the pattern bits of first.
func hpackInt(dst []byte, first byte, n uint, v uint64) []byte {
	max := uint64(1)<<n - 1
	if v < max {
		return append(dst, first|byte(v))
	}
	dst = append(dst, first|byte(max))
	for v -= max; v >= 0x80; v >>= 7 {
		dst = append(dst, byte(v)|0x80)
	}
	return append(dst, byte(v))
}

// upd is a dynamic table size update to v.
func upd(v uint64) []byte { return hpackInt(nil, 0x20, 5, v) }

// get is ":method: GET", static index 2.
var get = []byte{0x82}

func cat(parts ...[]byte) []byte { return slices.Concat(parts...) }

// TestSizeUpdateRules feeds nghttp2's inflater and our Decoder the same
// hand-made blocks around SETTINGS_HEADER_TABLE_SIZE changes, and checks
// that both accept or reject each as RFC 7541 §4.2 and RFC 9113 §4.3.1
// say, and agree on what they accept. Each case starts from fresh
// decoders at HTTP/2's initial 4096; every block before the last must be
// accepted.
func TestSizeUpdateRules(t *testing.T) {
	type block struct {
		settings []uint32 // changes before the block
		data     []byte
	}
	tests := []struct {
		name   string
		blocks []block
		accept bool // the last block
	}{
		{"empty block", []block{{nil, nil}}, true},
		{"update to the current size", []block{{nil, cat(upd(4096), get)}}, true},
		{"update below the setting", []block{{nil, cat(upd(100), get)}}, true},
		{"two updates without a change", []block{{nil, cat(upd(100), upd(4096), get)}}, true},
		{"update above the setting", []block{{nil, cat(upd(4097), get)}}, false},
		{"update after a field", []block{{nil, cat(get, upd(100))}}, false},
		{"update in the second block", []block{{nil, get}, {nil, cat(upd(0), get)}}, true},
		{"reduction: update to it", []block{{[]uint32{100}, cat(upd(100), get)}}, true},
		{"reduction: update below it", []block{{[]uint32{100}, cat(upd(0), get)}}, true},
		{"reduction: update above it", []block{{[]uint32{100}, cat(upd(101), get)}}, false},
		{"reduction: no update", []block{{[]uint32{100}, get}}, false},
		{"reduction: empty block", []block{{[]uint32{100}, nil}}, false},
		{"reduction: empty block after the first", []block{{nil, get}, {[]uint32{0}, nil}}, false},
		{"reduction signalled, then a block without update", []block{{[]uint32{100}, upd(100)}, {nil, get}}, true},
		{"two reductions: first update above the lowest", []block{{[]uint32{100, 256}, cat(upd(256), get)}}, false},
		{"two reductions: update to the lowest", []block{{[]uint32{100, 256}, cat(upd(100), get)}}, true},
		{"down and up: lowest then final", []block{{[]uint32{0, 4096}, cat(upd(0), upd(4096), get)}}, true},
		{"down and up: lowest only", []block{{[]uint32{0, 4096}, cat(upd(0), get)}}, true},
		{"down and up: final only", []block{{[]uint32{0, 4096}, cat(upd(4096), get)}}, false},
		{"down and up: second update above the final", []block{{[]uint32{0, 4096}, cat(upd(0), upd(4097), get)}}, false},
		{"growth: no update", []block{{[]uint32{65536}, get}}, true},
		{"growth: update to it", []block{{[]uint32{65536}, cat(upd(65536), get)}}, true},
		{"growth: update above it", []block{{[]uint32{65536}, cat(upd(65537), get)}}, false},
		{"setting 2^31: update to it", []block{{[]uint32{1 << 31}, cat(upd(1<<31), get)}}, true},
		{"setting 2^32-1: update to it", []block{{[]uint32{1<<32 - 1}, cat(upd(1<<32-1), get)}}, true},
		{"setting 2^32-1: update above it", []block{{[]uint32{1<<32 - 1}, cat(upd(1<<32), get)}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inf := newInflater(t)
			ours, err := newOurDecoder(4096, false)
			if err != nil {
				t.Fatal(err)
			}
			decs := []decSide{inf, ours}
			for i, b := range tt.blocks {
				last := i == len(tt.blocks)-1
				for _, v := range b.settings {
					for _, d := range decs {
						if err := d.settings(v); err != nil {
							t.Fatalf("block %d: %s: settings %d: %v", i, d.name(), v, err)
						}
					}
				}
				var results [][]hd.Field
				for _, d := range decs {
					got, err := d.decode(nil, b.data)
					want := !last || tt.accept
					if (err == nil) != want {
						t.Errorf("block %d (%x, settings %v before it): %s gives %v, %v; want accepted=%v", i, b.data, b.settings, d.name(), got, err, want)
					}
					results = append(results, got)
				}
				if t.Failed() {
					return
				}
				if !last || tt.accept {
					if !slices.Equal(results[0], results[1]) {
						t.Fatalf("block %d: %s gives %v, %s %v", i, decs[0].name(), results[0], decs[1].name(), results[1])
					}
					if a, b := snap(inf), snap(ours); !a.equal(b) {
						t.Fatalf("block %d: tables differ:\n%s: %v\n%s: %v", i, inf.name(), a, ours.name(), b)
					}
				}
			}
		})
	}
}
