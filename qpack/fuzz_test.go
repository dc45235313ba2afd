package qpack

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/metapack/metapack/mdelem"
)

// FuzzDecoder feeds a Decoder interleaved encoder-stream bytes, sections,
// cancellations and reads of its decoder stream, as ops: a byte saying
// what, a length byte, then the bytes. It must never panic, must keep its
// table within the capacity and its blocked streams within the limit, and
// after a connection error must refuse everything.
func FuzzDecoder(f *testing.F) {
	op := func(kind byte, hexs string) []byte {
		b, err := hex.DecodeString(strings.ReplaceAll(hexs, " ", ""))
		if err != nil {
			f.Fatal(err)
		}
		return append([]byte{kind, byte(len(b))}, b...)
	}
	b2 := op(0, b2Encoder)
	split := append(append([]byte{0, 7}, b2[2:9]...), append([]byte{0, b2[1] - 7}, b2[9:]...)...)
	f.Add(bytes.Join([][]byte{split, op(1, "0381 10 11"), op(3, "")}, nil))
	f.Add(bytes.Join([][]byte{op(1, "0381 10 11"), op(0, b2Encoder), op(4, ""), op(1, "0381 10 11")}, nil))
	f.Add(bytes.Join([][]byte{op(0, "3fbd01 4a63 7573 746f 6d2d 6b65 790c 6375 7374 6f6d 2d76 616c 7565"), op(2, ""), op(1, "0200 80"), op(0, "02"), op(4, "")}, nil))
	f.Add(op(1, "0000 510b 2f69 6e64 6578 2e68 746d 6c"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d := NewDecoder(220, 2)
		b := mdelem.NewBatch(8, 256)
		var blocked [][]byte // the sections the Decoder said were blocked, by stream-4 index
		stream := uint64(0)
		failed := false
		for len(data) >= 2 {
			kind, n := data[0]%5, int(data[1])
			data = data[2:]
			n = min(n, len(data))
			p := data[:n]
			data = data[n:]
			var err error
			switch kind {
			case 0:
				err = d.WriteEncoderStream(p)
			case 1:
				stream += 4
				b.Reset()
				err = d.Decode(b, stream, p)
				if err == ErrBlocked {
					blocked = append(blocked, append([]byte(nil), p...))
					err = nil
				}
			case 2:
				d.CancelStream(stream)
			case 3:
				d.AppendDecoderStream(nil)
			case 4:
				for _, s := range d.AppendUnblocked(nil) {
					if i := int(s/4) - 1; i >= 0 && i < len(blocked) {
						b.Reset()
						if err = d.Decode(b, s, blocked[i]); err == ErrBlocked {
							t.Fatalf("stream %d was reported unblocked but is blocked", s)
						}
					}
				}
			}
			if err != nil && !IsStreamError(err) {
				if _, ok := err.(*Error); !ok {
					t.Fatalf("error of type %T: %v", err, err)
				}
				failed = true
				break
			}
			if size, capacity := d.TableSize(); size > capacity || capacity > 220 {
				t.Fatalf("table size %d, capacity %d", size, capacity)
			}
			if len(d.blocked) > 2 {
				t.Fatalf("%d blocked streams, 2 allowed", len(d.blocked))
			}
		}
		if failed {
			if err := d.WriteEncoderStream([]byte{0x3f}); err == nil {
				t.Fatal("a Decoder after a connection error took more input")
			}
		}
	})
}

// FuzzRequiredInsertCount checks the Required Insert Count's decoding
// (RFC 9204 §4.5.1.1) against a search of its definition: the one value
// in (inserts+MaxEntries-2*MaxEntries, inserts+MaxEntries] that is
// encoded-1 modulo 2*MaxEntries, above 0. And what the Encoder writes for
// a count within reach decodes back to it.
func FuzzRequiredInsertCount(f *testing.F) {
	f.Add(uint32(220), uint64(0), uint64(1))
	f.Add(uint32(220), uint64(3), uint64(5))
	f.Add(uint32(220), uint64(11), uint64(12))
	f.Add(uint32(4096), uint64(1000), uint64(0))
	f.Add(uint32(31), uint64(7), uint64(1))
	f.Fuzz(func(t *testing.T, capacity uint32, inserts, enc uint64) {
		inserts %= 1 << 40
		d := NewDecoder(uint64(capacity), 0)
		d.inserts = inserts
		got, ok := d.requiredInserts(enc)
		maxEntries := uint64(capacity) / entryOverhead
		full := 2 * maxEntries
		want, wantOK := uint64(0), enc == 0
		if enc > 0 && enc <= full {
			hi := inserts + maxEntries
			lo := uint64(1)
			if hi >= full {
				lo = max(lo, hi-full+1)
			}
			for c := hi; c >= lo && c+full > hi; c-- {
				if c%full == enc-1 {
					want, wantOK = c, true
					break
				}
			}
		}
		if ok != wantOK || ok && got != want {
			t.Fatalf("capacity %d, inserts %d, encoded %d: got %d %v, want %d %v", capacity, inserts, enc, got, ok, want, wantOK)
		}
		// The encoder's side: a count the decoder is within MaxEntries of.
		if maxEntries > 0 {
			ric := inserts + enc%(maxEntries+1)
			if ric > 0 {
				e := &Encoder{maxEntries: maxEntries}
				st := sectionState{maxRef: ric, base: ric}
				sec := e.appendPrefix(nil, &st)
				encoded, _, _ := readTestInt(sec)
				if got, ok := d.requiredInserts(encoded); !ok || got != ric {
					t.Fatalf("capacity %d, decoder inserts %d: the encoder wrote %d for %d, which decodes to %d %v", capacity, inserts, encoded, ric, got, ok)
				}
			}
		}
	})
}

// readTestInt reads a section's first integer (8-bit prefix).
func readTestInt(p []byte) (uint64, int, bool) {
	if p[0] < 0xff {
		return uint64(p[0]), 1, true
	}
	v, n := binary.Uvarint(p[1:])
	return 0xff + v, n + 1, n > 0
}

// FuzzChannel sends header lists drawn from the input through an Encoder
// and a Decoder joined by a channel that delivers each section before or
// after its encoder-stream bytes, holds acknowledgments back, and cancels
// streams; every section delivered must decode to its list.
func FuzzChannel(f *testing.F) {
	f.Add([]byte("a:1;b:2;a:1;c:3;a:1"), uint8(0), uint8(3))
	f.Add([]byte(":path:/;:authority:x.example;cookie:abcdefghijklmnopqrstuvwxyz;:path:/;x-custom:v"), uint8(0x55), uint8(1))
	f.Add([]byte("authorization:secret;user-agent:ua;user-agent:ua;user-agent:ub"), uint8(0xf0), uint8(7))
	f.Fuzz(func(t *testing.T, data []byte, mode, capSel uint8) {
		capacity := []uint64{0, 64, 220, 4096}[capSel%4]
		blocked := uint64(capSel>>2) % 4
		enc := NewEncoder()
		enc.SetPeerSettings(capacity, blocked)
		dec := NewDecoder(capacity, blocked)
		type held struct {
			stream uint64
			sec    []byte
			want   string
		}
		var waiting []held // sections the decoder has not decoded yet
		var es, ds []byte  // encoder-stream bytes not yet delivered, decoder-stream bytes held
		in, out := mdelem.NewBatch(8, 256), mdelem.NewBatch(8, 256)
		lists := bytes.Split(data, []byte(";;"))
		if len(lists) > 64 {
			lists = lists[:64]
		}
		decode := func(h held) bool {
			out.Reset()
			err := dec.Decode(out, h.stream, h.sec)
			if err == ErrBlocked {
				return false
			}
			if err != nil {
				t.Fatalf("stream %d: %v", h.stream, err)
			}
			if got := fieldsOf(out); got != h.want {
				t.Fatalf("stream %d:\n%s\nwant:\n%s", h.stream, got, h.want)
			}
			return true
		}
		for i, l := range lists {
			bit := func(k int) bool { return mode>>((i+k)%8)&1 != 0 }
			in.Reset()
			var want bytes.Buffer
			for _, fld := range bytes.Split(l, []byte(";")) {
				name, value, ok := bytes.Cut(fld, []byte(":"))
				if len(name) == 0 && ok {
					name, value, _ = bytes.Cut(value, []byte(":"))
					name = append([]byte(":"), name...)
				}
				if len(name) == 0 {
					continue
				}
				in.Append(mdelem.From(mdelem.Borrowed(name), mdelem.Borrowed(value)))
				fmt.Fprintf(&want, "%s: %s\n", name, value)
			}
			stream := uint64(4 * i)
			var sec []byte
			sec, es = enc.AppendSection(nil, es, stream, in)
			h := held{stream, sec, want.String()}
			if bit(0) { // the section overtakes its encoder-stream bytes
				if !decode(h) {
					waiting = append(waiting, h)
				}
				if err := dec.WriteEncoderStream(es); err != nil {
					t.Fatal(err)
				}
				es = es[:0]
			} else if bit(1) && len(waiting) < int(blocked) { // cancel the stream: never delivered
				dec.CancelStream(stream)
			} else {
				if err := dec.WriteEncoderStream(es); err != nil {
					t.Fatal(err)
				}
				es = es[:0]
				if !decode(h) {
					t.Fatalf("stream %d blocked with all inserts delivered", stream)
				}
			}
			for _, s := range dec.AppendUnblocked(nil) {
				for j, w := range waiting {
					if w.stream == s {
						if !decode(w) {
							t.Fatalf("stream %d reported unblocked, but blocked", s)
						}
						waiting = append(waiting[:j], waiting[j+1:]...)
						break
					}
				}
			}
			ds = dec.AppendDecoderStream(ds)
			if !bit(2) { // deliver the held acknowledgments now
				if err := enc.WriteDecoderStream(ds); err != nil {
					t.Fatal(err)
				}
				ds = ds[:0]
			}
		}
		if len(waiting) > 0 && len(es) == 0 {
			t.Fatalf("%d sections still blocked with every insert delivered", len(waiting))
		}
	})
}
