package tier

import (
	"bufio"
	"fmt"
	"github.com/metapack/metapack/internal/story"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"
	xhpack "golang.org/x/net/http2/hpack"

	"github.com/metapack/metapack/internal/huffdata"
	"github.com/metapack/metapack/internal/tabledef"
)

// huffmanCode returns the code of sym from huffdata's tables, and false
// for a symbol past EOS.
func huffmanCode(sym int) (code uint32, bits uint8, ok bool) {
	if uint(sym) > huffdata.HuffmanEOS {
		return 0, 0, false
	}
	return huffdata.HuffmanCodes[sym], huffdata.HuffmanCodeLen[sym], true
}

// TestStaticTableMatchesXnet decodes every indexed static field with x/net's
// decoder and compares it with staticTable.
func TestStaticTableMatchesXnet(t *testing.T) {
	for i := 1; i <= TableLen; i++ {
		d := xhpack.NewDecoder(4096, nil)
		fields, err := d.DecodeFull([]byte{0x80 | byte(i)})
		if err != nil || len(fields) != 1 {
			t.Fatalf("x/net decoding index %d: %v %v", i, fields, err)
		}
		e := staticTable[i]
		if fields[0].Name != e.Name.s || fields[0].Value != e.Value.s {
			t.Errorf("index %d: have %q: %q, x/net gives %q: %q", i, e.Name.s, e.Value.s, fields[0].Name, fields[0].Value)
		}
		if want := uint32(fields[0].Size()); e.Size != want {
			t.Errorf("index %d: size %d, want %d", i, e.Size, want)
		}
	}
}

// TestHuffmanCodesMatchXnet encodes each byte alone with x/net and compares
// the bits with huffdata's codes, and checks the encoder's tables in
// internal/huffdata against them.
func TestHuffmanCodesMatchXnet(t *testing.T) {
	for b := range 256 {
		got := xhpack.AppendHuffmanString(nil, string([]byte{byte(b)}))
		code, bits, ok := huffmanCode(b)
		if !ok {
			t.Fatalf("huffmanCode(%d) not ok", b)
		}
		n := uint(bits)
		// Our code, padded with ones to whole bytes, as big-endian bytes.
		nbytes := (n + 7) / 8
		v := uint64(code)<<(nbytes*8-n) | (1<<(nbytes*8-n) - 1)
		want := make([]byte, nbytes)
		for i := range want {
			want[i] = byte(v >> (8 * (nbytes - 1 - uint(i))))
		}
		if string(got) != string(want) {
			t.Errorf("byte %#x: table gives %x, x/net encodes %x", b, want, got)
		}
		e := &huffdata.HuffmanEncodeTables
		if e.Code[b] != uint64(code) || e.Len[b] != uint64(n) || e.Pow[b] != 1<<n {
			t.Errorf("byte %#x: HuffmanEncodeTables has code %#x, length %d, pow %#x", b, e.Code[b], e.Len[b], e.Pow[b])
		}
	}
	for k, v := range huffdata.HuffmanEncodeTables.Top {
		var want uint64
		if k >= 1 && k <= 64 {
			want = 1 << (64 - k)
		}
		if v != want || huffdata.HuffmanEncodeTables.Bytes[k] != uint64(k/8) {
			t.Errorf("Top[%d] = %#x, Bytes[%d] = %d", k, v, k, huffdata.HuffmanEncodeTables.Bytes[k])
		}
	}
	if code, bits, _ := huffmanCode(huffdata.HuffmanEOS); code != 0x3fffffff || bits != 30 {
		t.Errorf("EOS is %#x/%d, want 30 ones", code, bits)
	}
	for _, sym := range []int{-1, huffdata.HuffmanEOS + 1, math.MaxInt} {
		if code, bits, ok := huffmanCode(sym); ok || code != 0 || bits != 0 {
			t.Errorf("huffmanCode(%d) = %#x, %d, %v; want 0, 0, false", sym, code, bits, ok)
		}
	}
}

func TestAtomsAreConsistent(t *testing.T) {
	for i := range atoms {
		a := &atoms[i]
		if int(a.id) != i {
			t.Errorf("atom %q: ID %d at position %d", a.s, a.id, i)
		}
		if a.hash != xxhash.Sum64String(a.s) {
			t.Errorf("atom %q: stale hash", a.s)
		}
		if i > 0 && i < NumKeys && int(a.key) != i {
			t.Errorf("atom %q at %d: key %d, want %d", a.s, i, a.key, i)
		}
		if i >= NumKeys && a.key != 0 {
			t.Errorf("value atom %q has key %d", a.s, a.key)
		}
	}
	for i := 1; i <= TableLen; i++ {
		e := staticTable[i]
		if e.PairHash != tabledef.PairHash(e.Name.hash, e.Value.hash) {
			t.Errorf("entry %d: PairHash disagrees with tabledef.PairHash", i)
		}
		if e.Name.key == 0 || e.Name.nameIndex == 0 || int(e.Name.nameIndex) > i {
			t.Errorf("entry %d: name atom %+v", i, *e.Name)
		}
	}
}

// TestGenDataMatchesShared checks the transcription in gen/data against the
// RFC data in ../shared, when it is there.
func TestGenDataMatchesShared(t *testing.T) {
	table := readTSV(t, "rfc7541", "static-table.tsv")
	if len(table) != TableLen {
		t.Fatalf("shared static table has %d rows", len(table))
	}
	for _, row := range table {
		i, _ := strconv.Atoi(row[0])
		value := ""
		if len(row) > 2 {
			value = row[2]
		}
		if e := staticTable[i]; e.Name.s != row[1] || e.Value.s != value {
			t.Errorf("static entry %d: %q: %q, RFC data says %q: %q", i, e.Name.s, e.Value.s, row[1], value)
		}
	}
	for _, row := range readTSV(t, "rfc7541", "huffman-code.tsv") {
		sym, _ := strconv.Atoi(row[0])
		code, _ := strconv.ParseUint(row[1], 16, 32)
		bits, _ := strconv.Atoi(row[2])
		if c, n, _ := huffmanCode(sym); c != uint32(code) || int(n) != bits {
			t.Errorf("symbol %d: %#x/%d, RFC data says %#x/%d", sym, c, n, code, bits)
		}
	}
}

// readTSV reads the data rows of a file in ../shared, skipping the test when
// it is absent.
func readTSV(t *testing.T, elems ...string) [][]string {
	t.Helper()
	f, err := os.Open(story.Shared(t, elems...))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] < '0' || line[0] > '9' {
			continue // comment or header
		}
		rows = append(rows, strings.Split(line, "\t"))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(fmt.Errorf("%s: %w", filepath.Join(elems...), err))
	}
	return rows
}
