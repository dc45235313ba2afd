package hpack_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	xhpack "golang.org/x/net/http2/hpack"

	compat "github.com/metapack/metapack/compat/hpack"
)

var diffNames = []string{
	":method", ":path", ":authority", ":scheme", ":status", "content-type",
	"user-agent", "cookie", "authorization", "grpc-status", "x-request-id",
	"x-custom", "te", "", "accept-encoding", "very-long-header-name-that-is-custom",
}

var diffValues = []string{
	"GET", "POST", "/", "/index.html", "200", "404", "application/grpc",
	"gzip, deflate", "", "trailers", "https", "0",
}

// randField returns a field mixing static-table strings, repeated custom
// ones and fresh random ones, some of them binary.
func randField(r *rand.Rand) xhpack.HeaderField {
	f := xhpack.HeaderField{Name: diffNames[r.IntN(len(diffNames))]}
	switch r.IntN(4) {
	case 0:
		f.Value = diffValues[r.IntN(len(diffValues))]
	case 1:
		f.Value = fmt.Sprintf("v%d", r.IntN(20))
	case 2:
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = byte(' ' + r.IntN(95))
		}
		f.Value = string(b)
	default:
		b := make([]byte, r.IntN(300))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		f.Value = string(b)
	}
	if r.IntN(8) == 0 {
		f.Name = fmt.Sprintf("x-name-%d", r.IntN(50))
	}
	f.Sensitive = r.IntN(10) == 0
	return f
}

// writeSplit feeds block to write in random pieces.
func writeSplit(r *rand.Rand, block []byte, write func([]byte) (int, error)) error {
	for len(block) > 0 {
		n := 1 + r.IntN(len(block))
		if r.IntN(2) == 0 {
			n = len(block)
		}
		if _, err := write(block[:n]); err != nil {
			return err
		}
		block = block[n:]
	}
	return nil
}

// blockDecoder is the part of x/net's Decoder, and the drop-in's, that
// feedBoth uses.
type blockDecoder interface {
	Write(p []byte) (int, error)
	Close() error
}

// feedBoth writes block to x/net's decoder and then to the drop-in's, each
// in random pieces and closed, and fails t on an error of either.
func feedBoth(t *testing.T, r *rand.Rand, block []byte, xdec, cdec blockDecoder, seed uint64, blk int) {
	t.Helper()
	for _, d := range []struct {
		name string
		dec  blockDecoder
	}{{"x/net", xdec}, {"compat", cdec}} {
		if err := writeSplit(r, block, d.dec.Write); err != nil {
			t.Fatalf("seed %d block %d: %s: %v", seed, blk, d.name, err)
		}
		if err := d.dec.Close(); err != nil {
			t.Fatalf("seed %d block %d: %s Close: %v", seed, blk, d.name, err)
		}
	}
}

// TestDifferentialXnetEncoder encodes random header lists with x/net's
// Encoder, changing the table size now and then, and decodes each block
// with x/net's Decoder and the drop-in, whole and in random pieces.
func TestDifferentialXnetEncoder(t *testing.T) {
	for seed := uint64(0); seed < 40; seed++ {
		r := rand.New(rand.NewPCG(seed, 18))
		var buf bytes.Buffer
		enc := xhpack.NewEncoder(&buf)
		enc.SetMaxDynamicTableSizeLimit(8192)
		var xgot []xhpack.HeaderField
		xdec := xhpack.NewDecoder(4096, func(f xhpack.HeaderField) { xgot = append(xgot, f) })
		var cgot []compat.HeaderField
		cdec := compat.NewDecoder(4096, func(f compat.HeaderField) { cgot = append(cgot, f) })
		cfull := compat.NewDecoder(4096, nil)
		for blk := 0; blk < 60; blk++ {
			if r.IntN(10) == 0 {
				sz := uint32(r.IntN(5000))
				enc.SetMaxDynamicTableSize(sz)
				xdec.SetAllowedMaxDynamicTableSize(max(sz, 4096))
				cdec.SetAllowedMaxDynamicTableSize(max(sz, 4096))
				cfull.SetAllowedMaxDynamicTableSize(max(sz, 4096))
			}
			buf.Reset()
			want := make([]xhpack.HeaderField, 1+r.IntN(20))
			for i := range want {
				want[i] = randField(r)
				if err := enc.WriteField(want[i]); err != nil {
					t.Fatal(err)
				}
			}
			block := buf.Bytes()
			xgot, cgot = xgot[:0], cgot[:0]
			feedBoth(t, r, block, xdec, cdec, seed, blk)
			full, err := cfull.DecodeFull(block)
			if err != nil {
				t.Fatalf("seed %d block %d: compat DecodeFull: %v", seed, blk, err)
			}
			if !reflect.DeepEqual(xgot, cgot) {
				t.Fatalf("seed %d block %d: Write+Close:\n got %v\nwant %v", seed, blk, cgot, xgot)
			}
			if !reflect.DeepEqual(xgot, full) {
				t.Fatalf("seed %d block %d: DecodeFull:\n got %v\nwant %v", seed, blk, full, xgot)
			}
		}
	}
}

// TestDifferentialCompatEncoder encodes random header lists with the
// drop-in's Encoder and decodes them with x/net's Decoder.
func TestDifferentialCompatEncoder(t *testing.T) {
	for seed := uint64(0); seed < 40; seed++ {
		r := rand.New(rand.NewPCG(seed, 7541))
		var buf bytes.Buffer
		enc := compat.NewEncoder(&buf)
		enc.SetMaxDynamicTableSizeLimit(8192)
		xdec := xhpack.NewDecoder(4096, nil)
		for blk := 0; blk < 60; blk++ {
			if r.IntN(10) == 0 {
				sz := uint32(r.IntN(9000))
				enc.SetMaxDynamicTableSize(sz)
				xdec.SetAllowedMaxDynamicTableSize(max(sz, 4096))
			}
			if r.IntN(30) == 0 {
				enc.SetMaxDynamicTableSizeLimit(uint32(r.IntN(9000)))
			}
			buf.Reset()
			want := make([]compat.HeaderField, 1+r.IntN(20))
			for i := range want {
				want[i] = randField(r)
				if err := enc.WriteField(want[i]); err != nil {
					t.Fatal(err)
				}
			}
			got, err := xdec.DecodeFull(buf.Bytes())
			if err != nil {
				t.Fatalf("seed %d block %d: x/net: %v", seed, blk, err)
			}
			if !sameFields(got, want) {
				t.Fatalf("seed %d block %d:\n got %v\nwant %v", seed, blk, got, want)
			}
		}
	}
}

// sameFields compares decoded fields with the ones encoded. The drop-in's
// Encoder may send a field the caller did not mark Sensitive as never
// indexed (authorization, short cookies: see the package doc), so a
// decoder may report more fields Sensitive, never fewer.
func sameFields(got, want []compat.HeaderField) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.Name != w.Name || g.Value != w.Value || (w.Sensitive && !g.Sensitive) {
			return false
		}
	}
	return true
}

// TestDifferentialEmitToggles is TestDifferentialXnetEncoder with emitting
// turned off for some blocks, and off from within the emit function after
// a few fields of others, as a server over its header list limit does.
// The drop-in's table then holds entries of both kinds, values it kept as
// the strings it emitted and values it copied while not emitting, and the
// later blocks that index them must still decode as x/net's do.
func TestDifferentialEmitToggles(t *testing.T) {
	for seed := uint64(0); seed < 40; seed++ {
		r := rand.New(rand.NewPCG(seed, 9113))
		var buf bytes.Buffer
		enc := xhpack.NewEncoder(&buf)
		stopAfter := -1 // fields to emit before turning emitting off; -1: all
		var xgot []xhpack.HeaderField
		var xdec *xhpack.Decoder
		xdec = xhpack.NewDecoder(4096, func(f xhpack.HeaderField) {
			xgot = append(xgot, f)
			if len(xgot) == stopAfter {
				xdec.SetEmitEnabled(false)
			}
		})
		var cgot []compat.HeaderField
		var cdec *compat.Decoder
		cdec = compat.NewDecoder(4096, func(f compat.HeaderField) {
			cgot = append(cgot, f)
			if len(cgot) == stopAfter {
				cdec.SetEmitEnabled(false)
			}
		})
		for blk := 0; blk < 80; blk++ {
			buf.Reset()
			for range 1 + r.IntN(20) {
				if err := enc.WriteField(randField(r)); err != nil {
					t.Fatal(err)
				}
			}
			stopAfter = -1
			on := r.IntN(3) != 0
			if on && r.IntN(2) == 0 {
				stopAfter = 1 + r.IntN(5)
			}
			xdec.SetEmitEnabled(on)
			cdec.SetEmitEnabled(on)
			xgot, cgot = xgot[:0], cgot[:0]
			feedBoth(t, r, buf.Bytes(), xdec, cdec, seed, blk)
			if !reflect.DeepEqual(xgot, cgot) {
				t.Fatalf("seed %d block %d (emit %v, stop after %d):\n got %v\nwant %v", seed, blk, on, stopAfter, cgot, xgot)
			}
		}
	}
}
