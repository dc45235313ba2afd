package fuzz

import (
	"testing"

	"github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/mdelem"
	xhpack "golang.org/x/net/http2/hpack"
)

// toBatch fills b with a header list, every string borrowed.
func toBatch(b *mdelem.Batch, list []xhpack.HeaderField) {
	b.Reset()
	for _, hf := range list {
		b.Append(mdelem.From(mdelem.BorrowString(hf.Name), mdelem.BorrowString(hf.Value)).WithSensitive(hf.Sensitive))
	}
}

// settingsChange applies the fuzzer's SETTINGS_HEADER_TABLE_SIZE change, if
// any, before list i: to our encoder (the peer's new setting) and to both
// decoders (our new advertised setting).
func settingsChange(sizes byte, i int) (uint32, bool) {
	if i == 0 || sizes&(1<<(i%8)) == 0 {
		return 0, false
	}
	return tableSizes[(int(sizes)+i)%len(tableSizes)], true
}

// sameRoundTrip compares a decoded list with the encoded one. Names and
// values must match exactly; a sensitive field must stay sensitive, and a
// field may become never-indexed only where the default policy makes it so
// (authorization, proxy-authorization, cookies under 20 bytes).
func sameRoundTrip(got, want []field) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.Name != w.Name || g.Value != w.Value || (w.Sensitive && !g.Sensitive) {
			return false
		}
		if g.Sensitive && !w.Sensitive && !policyNeverIndexed(g) {
			return false
		}
	}
	return true
}

func policyNeverIndexed(f field) bool {
	switch f.Name {
	case "authorization", "proxy-authorization":
		return true
	case "cookie":
		return len(f.Value) < 20
	}
	return false
}

// FuzzRoundTrip encodes the fuzzer's header lists with our encoder, with
// SETTINGS changes between lists, and decodes each block with our decoder
// and x/net's: both must give back the list exactly.
func FuzzRoundTrip(f *testing.F) {
	f.Add(":method: GET\n:path: /\nsecret: x\n\n:status: 200\n", byte(6))
	f.Fuzz(func(t *testing.T, text string, sizes byte) {
		enc := hpack.NewEncoder(4096)
		ours := newOurDecoder(4096)
		var got []xhpack.HeaderField
		theirs := xhpack.NewDecoder(4096, func(hf xhpack.HeaderField) { got = append(got, hf) })
		theirs.SetMaxStringLength(fuzzMaxString)
		in := mdelem.NewBatch(0, 0)
		out := mdelem.NewBatch(0, 0)
		var block []byte
		for i, list := range parseHeaders(text) {
			if size, ok := settingsChange(sizes, i); ok {
				enc.SetMaxDynamicTableSize(size)
				ours.SetAllowedMaxDynamicTableSize(size)
				theirs.SetAllowedMaxDynamicTableSize(size)
			}
			toBatch(in, list)
			block = enc.AppendBlock(block[:0], in)
			out.Reset()
			if err := ours.Decode(out, block); err != nil {
				t.Fatalf("list %d %v: our decoder: %v (block %x)", i, list, err, block)
			}
			if g, w := fromBatch(out), fromXnet(list); !sameRoundTrip(g, w) {
				t.Fatalf("list %d: our decoder gives %v, want %v", i, g, w)
			}
			got = got[:0]
			if _, err := theirs.Write(block); err != nil {
				t.Fatalf("list %d: x/net: %v (block %x)", i, err, block)
			}
			if err := theirs.Close(); err != nil {
				t.Fatalf("list %d: x/net: %v", i, err)
			}
			if g, w := fromXnet(got), fromXnet(list); !sameRoundTrip(g, w) {
				t.Fatalf("list %d: x/net gives %v, want %v", i, g, w)
			}
		}
	})
}

// FuzzTableSync checks after every block that the encoder's dynamic table
// and our decoder's hold the same entries and size, also when the decoder's
// header list limit (chosen by the fuzzer) drops fields from a block.
func FuzzTableSync(f *testing.F) {
	f.Add(":method: GET\nx-a: 1\nx-b: 22\n\nx-a: 1\n", byte(3), uint16(64))
	f.Fuzz(func(t *testing.T, text string, sizes byte, listLimit uint16) {
		enc := hpack.NewEncoder(4096)
		dec := newOurDecoder(4096)
		dec.SetMaxHeaderListSize(int(listLimit))
		in := mdelem.NewBatch(0, 0)
		out := mdelem.NewBatch(0, 0)
		var block []byte
		for i, list := range parseHeaders(text) {
			if size, ok := settingsChange(sizes, i); ok {
				enc.SetMaxDynamicTableSize(size)
				dec.SetAllowedMaxDynamicTableSize(size)
			}
			toBatch(in, list)
			block = enc.AppendBlock(block[:0], in)
			out.Reset()
			if err := dec.Decode(out, block); err != nil && !hpack.IsStreamError(err) {
				t.Fatalf("list %d: %v", i, err)
			}
			es, em := enc.DynamicTableSize()
			ds, dm := dec.DynamicTableSize()
			if _, _, more := dec.DynamicEntry(enc.DynamicTableLen()); es != ds || em != dm || more {
				t.Fatalf("list %d: encoder table %d/%d with %d entries, decoder %d/%d with more", i, es, em, enc.DynamicTableLen(), ds, dm)
			}
			for j := range enc.DynamicTableLen() {
				en, ev, _ := enc.DynamicEntry(j)
				dn, dv, _ := dec.DynamicEntry(j)
				if en != dn || ev != dv {
					t.Fatalf("list %d entry %d: encoder %q: %q, decoder %q: %q", i, j, en, ev, dn, dv)
				}
			}
		}
	})
}
