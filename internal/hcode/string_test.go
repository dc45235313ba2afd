package hcode

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	xhpack "golang.org/x/net/http2/hpack"
)

// refReadString is ReadString written another way, for the tests to check it
// against: the length is summed in a big.Int, byte by byte.
func refReadString(p []byte, n uint, max uint64, limit int) (start, end int, huff bool, res StrResult) {
	if len(p) == 0 {
		return 0, 1, false, StrTruncated
	}
	max = min(max, MaxInt62)
	maxBytes := 1 + (bits.Len64(max)+6)/7 // ReadInt's rule on redundant continuations
	mask := int64(1)<<n - 1
	l := big.NewInt(int64(p[0]) & mask)
	start = 1
	if l.Int64() == mask {
		for shift := uint(0); ; shift += 7 {
			if start == len(p) {
				return 0, len(p) + 1, false, StrTruncated
			}
			b := p[start]
			start++
			l.Add(l, new(big.Int).Lsh(big.NewInt(int64(b&0x7f)), shift))
			if l.Cmp(new(big.Int).SetUint64(max)) > 0 {
				return 0, 0, false, StrOverflow
			}
			if b < 0x80 {
				break
			}
			if start >= maxBytes {
				return 0, 0, false, StrOverflow
			}
		}
	}
	huff = p[0]&(1<<n) != 0
	e := new(big.Int).Add(l, big.NewInt(int64(start)))
	end = math.MaxInt
	if e.IsInt64() && e.Int64() <= math.MaxInt {
		end = int(e.Int64())
	}
	switch {
	case limit < 0 || l.Cmp(big.NewInt(int64(limit))) > 0:
		return start, end, huff, StrTooLong
	case e.Cmp(big.NewInt(int64(len(p)))) > 0:
		return start, end, huff, StrTruncated
	}
	return start, end, huff, StrOK
}

// literal builds a string literal by hand: flags, then H, then octets' length
// with an n-bit prefix, then octets.
func literal(n uint, flags byte, huff bool, octets []byte) []byte {
	if huff {
		flags |= 1 << n
	}
	return append(AppendInt(nil, n, flags, uint64(len(octets))), octets...)
}

// TestReadString reads literals with every length prefix from 1 to 7, raw
// and Huffman, at the lengths around the prefix's boundary, whole, cut at
// every byte, under limits and maximums just below their lengths.
func TestReadString(t *testing.T) {
	for n := uint(1); n <= 7; n++ {
		flags := byte(0xff) << (n + 1) // n == 7 leaves none
		for _, huff := range []bool{false, true} {
			for _, l := range []int{0, 1, 1<<n - 2, 1<<n - 1, 1 << n, 1<<n + 127, 1<<n + 128, 300} {
				octets := bytes.Repeat([]byte{'&'}, l) // & codes to 8 bits: l bytes of Huffman for l of text
				if huff {
					octets = xhpack.AppendHuffmanString(nil, strings.Repeat("&", l))
				}
				wire := literal(n, flags, huff, octets)
				prefix := len(wire) - l
				t.Run(fmt.Sprintf("n=%d/huff=%v/len=%d", n, huff, l), func(t *testing.T) {
					w := append(wire, 0x55, 0xaa)
					start, end, h, res := ReadString(w, n, MaxInt62, l)
					if res != StrOK || start != prefix || end != len(wire) || h != huff || !bytes.Equal(w[start:end], octets) {
						t.Fatalf("ReadString(%x) = %d, %d, %v, %v", w, start, end, h, res)
					}
					pre := []byte{0xff, 0xff}
					raw, end, h, ok := ReadShortString(append(pre, wire...), len(pre), n, l)
					if short := l < 1<<n-1; ok != short || ok && (!bytes.Equal(raw, octets) || cap(raw) != l || end != len(pre)+len(wire) || h != huff) {
						t.Errorf("ReadShortString = %x, %d, %v, %v; want ok %v", raw, end, h, ok, short)
					}
					for cut := range len(wire) {
						wantStart, wantEnd := prefix, len(wire) // the whole literal, once the length is read
						if cut < prefix {
							wantStart, wantEnd = 0, cut+1
						}
						if start, end, _, res := ReadString(wire[:cut], n, MaxInt62, l); res != StrTruncated || start != wantStart || end != wantEnd {
							t.Errorf("cut at %d: %d, %d, %v; want %d, %d, truncated", cut, start, end, res, wantStart, wantEnd)
						}
						if _, _, _, ok := ReadShortString(wire[:cut], 0, n, l); ok {
							t.Errorf("cut at %d: ReadShortString ok", cut)
						}
					}
					if l == 0 {
						return
					}
					// Over the limit, even before the octets are there.
					for _, p := range [][]byte{wire, wire[:prefix]} {
						if start, end, _, res := ReadString(p, n, MaxInt62, l-1); res != StrTooLong || start != prefix || end != len(wire) {
							t.Errorf("limit %d on %d bytes of %d: %d, %d, %v; want too long", l-1, len(p), len(wire), start, end, res)
						}
					}
					if _, _, _, ok := ReadShortString(wire, 0, n, l-1); ok {
						t.Errorf("limit %d: ReadShortString ok", l-1)
					}
					if _, _, _, res := ReadString(wire, n, uint64(l-1), l); prefix > 1 && res != StrOverflow {
						t.Errorf("max %d: %v, want overflow", l-1, res)
					}
				})
			}
		}
	}
}

// TestReadStringExtremes reads lengths far beyond any input: over 2^32-1, at
// 2^62-1, and with continuation bytes the maximum does not need; and
// arguments out of range, which must not panic.
func TestReadStringExtremes(t *testing.T) {
	redundant := []byte{0x7f, 0x80, 0x80, 0x80, 0x80, 0x80, 0} // 127, in 7 bytes
	tests := []struct {
		name    string
		p       []byte
		n       uint
		max     uint64
		limit   int
		wantEnd int
		want    StrResult
	}{
		{"2^32 over 2^32-1", AppendInt(nil, 5, 0, 1<<32), 5, 1<<32 - 1, math.MaxInt, 0, StrOverflow},
		{"2^32-1 awaited", AppendInt(nil, 5, 0, 1<<32-1), 5, 1<<32 - 1, math.MaxInt, wide(6 + 1<<32 - 1), StrTruncated},
		{"2^62-1 awaited", AppendInt(nil, 3, 0, MaxInt62), 3, MaxInt62, math.MaxInt, wide(10 + MaxInt62), StrTruncated},
		{"2^62-1 over a limit", AppendInt(nil, 3, 0, MaxInt62), 3, MaxInt62, 1 << 20, wide(10 + MaxInt62), StrTooLong},
		{"redundant continuations", redundant, 7, 1<<32 - 1, math.MaxInt, 0, StrOverflow},
		{"redundant continuations, wide max", redundant, 7, MaxInt62, math.MaxInt, 7 + 127, StrTruncated},
		{"negative limit", []byte{0}, 7, MaxInt62, -1, 1, StrTooLong},
		{"empty input", nil, 7, MaxInt62, 10, 1, StrTruncated},
		{"n=0", []byte{0x80, 0x01, 'a'}, 0, MaxInt62, 10, 3, StrOK},
		{"n=64", []byte{0x02, 'a', 'b'}, 64, MaxInt62, 10, 3, StrOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.wantEnd == tooWide {
				t.Skip("the literal's end does not fit a 32-bit int")
			}
			start, end, huff, res := ReadString(tt.p, tt.n, tt.max, tt.limit)
			if res != tt.want || end != tt.wantEnd {
				t.Errorf("ReadString(%x, %d, %d, %d): %d, %v; want %d, %v", tt.p, tt.n, tt.max, tt.limit, end, res, tt.wantEnd, tt.want)
			}
			if ws, we, wh, wres := refReadString(tt.p, tt.n, tt.max, tt.limit); start != ws || end != we || huff != wh || res != wres {
				t.Errorf("ReadString gives %d, %d, %v, %v; the reference %d, %d, %v, %v", start, end, huff, res, ws, we, wh, wres)
			}
			for _, pos := range []int{-1, 0, len(tt.p), len(tt.p) + 1, math.MaxInt} {
				if _, _, _, ok := ReadShortString(tt.p, pos, tt.n, tt.limit); ok && tt.want != StrOK {
					t.Errorf("ReadShortString at %d: ok", pos)
				}
			}
		})
	}
}

// decodeRef decodes a literal with the reference reader and x/net's Huffman
// decoder.
func decodeRef(t *testing.T, p []byte, n uint) (s string, huff bool, size int) {
	t.Helper()
	start, size, huff, res := refReadString(p, n, MaxInt62, math.MaxInt)
	if res != StrOK {
		t.Fatalf("%x: the reference reads %v", p, res)
	}
	raw := p[start:size]
	if !huff {
		return string(raw), false, size
	}
	s, err := xhpack.HuffmanDecodeToString(raw)
	if err != nil {
		t.Fatalf("%x: x/net cannot decode the Huffman octets: %v", p, err)
	}
	return s, true, size
}

// checkAppendString appends s after a prefix into dst, and checks what it
// wrote with the reference reader, x/net's Huffman decoder and ReadString.
func checkAppendString(t *testing.T, dst []byte, n uint, flags byte, s string, huffman bool) {
	t.Helper()
	start := len(dst)
	head := string(dst)
	out := AppendString(dst, n, flags, s, huffman)
	if string(out[:start]) != head {
		t.Fatalf("%q: the bytes before the literal changed", s)
	}
	lit := out[start:]
	got, huff, size := decodeRef(t, lit, n)
	wantHuff := huffman && EncodedLen(s) < len(s)
	if got != s || huff != wantHuff || size != len(lit) || lit[0]&^(2<<n-1) != flags {
		t.Fatalf("AppendString(n=%d, %08b, %q, %v) = %x: decodes to %q, H %v (want %v), %d of %d bytes", n, flags, s, huffman, lit, got, huff, wantHuff, size, len(lit))
	}
	if huff && !bytes.Equal(lit[len(lit)-EncodedLen(s):], xhpack.AppendHuffmanString(nil, s)) {
		t.Fatalf("%q: Huffman octets differ from x/net's", s)
	}
	rstart, rend, rhuff, res := ReadString(lit, n, MaxInt62, len(lit))
	if res != StrOK || rend != len(lit) || rhuff != huff || rstart != IntLen(n, uint64(rend-rstart)) {
		t.Fatalf("ReadString(%x) = %d, %d, %v, %v", lit, rstart, rend, rhuff, res)
	}
}

// TestAppendString writes literals with every length prefix from 1 to 7,
// with Huffman coding allowed and not, whose raw or Huffman length is
// around the prefix's boundary, into buffers with and without room.
func TestAppendString(t *testing.T) {
	rng := rand.New(rand.NewPCG(9204, 412))
	for n := uint(1); n <= 7; n++ {
		flags := byte(0xa5) << (n + 1) &^ (2<<n - 1)
		var strs []string
		for _, l := range []int{0, 1, 2, 1<<n - 2, 1<<n - 1, 1 << n, 1<<n + 1, 1<<n + 127, 1<<n + 128, 1000} {
			if l < 0 {
				continue
			}
			// "&" codes to 8 bits, never shorter; "0" to 5, so 8l/5 of them
			// take l bytes.
			strs = append(strs, strings.Repeat("&", l), strings.Repeat("0", 8*l/5), string(highBytes(rng, l)))
		}
		for _, huffman := range []bool{false, true} {
			t.Run(fmt.Sprintf("n=%d/huffman=%v", n, huffman), func(t *testing.T) {
				for _, s := range strs {
					for _, room := range []int{0, 1, len(s) / 2, len(s) + 5, 4*len(s) + 16} {
						dst := append(make([]byte, 0, 3+room), "pre"...)
						checkAppendString(t, dst, n, flags, s, huffman)
					}
					checkAppendString(t, nil, n, 0, s, huffman)
				}
			})
		}
	}
}

// TestAppendStringLengths checks the Huffman choice where the coded length
// crosses the prefix boundary, which moves the octets back a byte.
func TestAppendStringLengths(t *testing.T) {
	for n := uint(1); n <= 7; n++ {
		for k := 0; k <= 1<<n+40; k++ {
			s := strings.Repeat("0", k)
			out := AppendString(nil, n, 0, s, true)
			h := EncodedLen(s)
			want := IntLen(n, uint64(h)) + h
			if h >= k {
				want = IntLen(n, uint64(k)) + k
			}
			if len(out) != want {
				t.Errorf("n=%d: %d zeros take %d bytes, want %d", n, k, len(out), want)
			}
		}
	}
}

// FuzzString round-trips the fuzzer's bytes through AppendString and checks
// them with the reference reader and x/net's Huffman decoder; and reads
// them as a literal with ReadString and ReadShortString, which must agree
// with the reference reader.
func FuzzString(f *testing.F) {
	f.Add([]byte("www.example.com"), uint8(6), byte(0x20), true, uint16(100), uint64(1<<32-1))
	f.Fuzz(func(t *testing.T, data []byte, np uint8, flags byte, huffman bool, limit uint16, max uint64) {
		n := 1 + uint(np%7)
		checkAppendString(t, nil, n, flags&^(2<<n-1), string(data), huffman)
		lim := int(limit)
		if limit == math.MaxUint16 {
			lim = math.MaxInt
		}
		start, end, huff, res := ReadString(data, n, max, lim)
		ws, we, wh, wres := refReadString(data, n, max, lim)
		if start != ws || end != we || huff != wh || res != wres {
			t.Fatalf("ReadString(%x, %d, %d, %d) = %d, %d, %v, %v; the reference reads %d, %d, %v, %v", data, n, max, lim, start, end, huff, res, ws, we, wh, wres)
		}
		raw, send, shuff, ok := ReadShortString(data, 0, n, lim)
		short := res == StrOK && start == 1 && end-start < 1<<n-1
		if ok != short || ok && (!bytes.Equal(raw, data[start:end]) || send != end || shuff != huff) {
			t.Fatalf("ReadShortString(%x, 0, %d, %d) = %x, %d, %v, %v", data, n, lim, raw, send, shuff, ok)
		}
	})
}

// tooWide stands for an end past math.MaxInt, on a 32-bit platform.
const tooWide = -2

// wide returns x as an int, or tooWide where int cannot hold it.
func wide(x uint64) int {
	if x > math.MaxInt {
		return tooWide
	}
	return int(x)
}
