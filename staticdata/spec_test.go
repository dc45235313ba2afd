package staticdata

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"
	"golang.org/x/net/http2/hpack"
)

// TestStaticTableMatchesXnet decodes every indexed static field with x/net's
// decoder and compares it with StaticTable.
func TestStaticTableMatchesXnet(t *testing.T) {
	for i := 1; i <= StaticTableLen; i++ {
		d := hpack.NewDecoder(4096, nil)
		fields, err := d.DecodeFull([]byte{0x80 | byte(i)})
		if err != nil || len(fields) != 1 {
			t.Fatalf("x/net decoding index %d: %v %v", i, fields, err)
		}
		e := StaticTable[i]
		if fields[0].Name != e.Name.S || fields[0].Value != e.Value.S {
			t.Errorf("index %d: have %q: %q, x/net gives %q: %q", i, e.Name.S, e.Value.S, fields[0].Name, fields[0].Value)
		}
		if want := uint32(fields[0].Size()); e.Size != want {
			t.Errorf("index %d: size %d, want %d", i, e.Size, want)
		}
	}
}

// TestHuffmanCodesMatchXnet encodes each byte alone with x/net and compares
// the bits with HuffmanCodes and HuffmanCodeLen.
func TestHuffmanCodesMatchXnet(t *testing.T) {
	for b := range 256 {
		got := hpack.AppendHuffmanString(nil, string([]byte{byte(b)}))
		n := uint(HuffmanCodeLen[b])
		// Our code, padded with ones to whole bytes, as big-endian bytes.
		nbytes := (n + 7) / 8
		v := uint64(HuffmanCodes[b])<<(nbytes*8-n) | (1<<(nbytes*8-n) - 1)
		want := make([]byte, nbytes)
		for i := range want {
			want[i] = byte(v >> (8 * (nbytes - 1 - uint(i))))
		}
		if string(got) != string(want) {
			t.Errorf("byte %#x: table gives %x, x/net encodes %x", b, want, got)
		}
		e := &HuffmanEncodeTables
		if e.Code[b] != uint64(HuffmanCodes[b]) || e.Len[b] != uint64(n) || e.Pow[b] != 1<<n {
			t.Errorf("byte %#x: HuffmanEncodeTables has code %#x, length %d, pow %#x", b, e.Code[b], e.Len[b], e.Pow[b])
		}
	}
	for k, v := range HuffmanEncodeTables.Top {
		var want uint64
		if k >= 1 && k <= 64 {
			want = 1 << (64 - k)
		}
		if v != want || HuffmanEncodeTables.Bytes[k] != uint64(k/8) {
			t.Errorf("Top[%d] = %#x, Bytes[%d] = %d", k, v, k, HuffmanEncodeTables.Bytes[k])
		}
	}
	if HuffmanCodes[HuffmanEOS] != 0x3fffffff || HuffmanCodeLen[HuffmanEOS] != 30 {
		t.Errorf("EOS is %#x/%d, want 30 ones", HuffmanCodes[HuffmanEOS], HuffmanCodeLen[HuffmanEOS])
	}
}

func TestAtomsAreConsistent(t *testing.T) {
	for i := range Atoms {
		a := &Atoms[i]
		if int(a.ID) != i {
			t.Errorf("atom %q: ID %d at position %d", a.S, a.ID, i)
		}
		if a.Hash != xxhash.Sum64String(a.S) {
			t.Errorf("atom %q: stale hash", a.S)
		}
		if i > 0 && i < NumKeys && int(a.Key) != i {
			t.Errorf("atom %q at %d: key %d, want %d", a.S, i, a.Key, i)
		}
		if i >= NumKeys && a.Key != KeyUnknown {
			t.Errorf("value atom %q has key %d", a.S, a.Key)
		}
	}
	for i := 1; i <= StaticTableLen; i++ {
		e := StaticTable[i]
		if e.PairHash != PairHash(e.Name.Hash, e.Value.Hash) {
			t.Errorf("entry %d: PairHash disagrees with PairHash()", i)
		}
		if e.Name.Key == KeyUnknown || e.Name.NameIndex == 0 || int(e.Name.NameIndex) > i {
			t.Errorf("entry %d: name atom %+v", i, *e.Name)
		}
	}
	for k, name := range map[KeyID]string{
		KeyPath: ":path", KeyAuthority: ":authority", KeyContentType: "content-type",
		KeyTe: "te", KeyGrpcTimeout: "grpc-timeout", KeyGrpcStatusDetailsBin: "grpc-status-details-bin",
		KeyLbToken: "lb-token", KeyUserAgent: "user-agent",
	} {
		if k.String() != name || k.Atom().Key != k {
			t.Errorf("key %d is %q, want %q", k, k.String(), name)
		}
	}
}

// TestGenDataMatchesShared checks the transcription in gen/data against the
// RFC data in ../shared, when it is there.
func TestGenDataMatchesShared(t *testing.T) {
	table := readTSV(t, "../../shared/rfc7541/static-table.tsv")
	if len(table) != StaticTableLen {
		t.Fatalf("shared static table has %d rows", len(table))
	}
	for _, row := range table {
		i, _ := strconv.Atoi(row[0])
		value := ""
		if len(row) > 2 {
			value = row[2]
		}
		if e := StaticTable[i]; e.Name.S != row[1] || e.Value.S != value {
			t.Errorf("static entry %d: %q: %q, RFC data says %q: %q", i, e.Name.S, e.Value.S, row[1], value)
		}
	}
	for _, row := range readTSV(t, "../../shared/rfc7541/huffman-code.tsv") {
		sym, _ := strconv.Atoi(row[0])
		code, _ := strconv.ParseUint(row[1], 16, 32)
		bits, _ := strconv.Atoi(row[2])
		if HuffmanCodes[sym] != uint32(code) || int(HuffmanCodeLen[sym]) != bits {
			t.Errorf("symbol %d: %#x/%d, RFC data says %#x/%d", sym, HuffmanCodes[sym], HuffmanCodeLen[sym], code, bits)
		}
	}
}

// readTSV reads the data rows of a file in ../shared, skipping the test when
// ../shared is absent.
func readTSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		t.Skipf("%s is absent (../shared sits beside the checkout only in the project's workplace)", path)
	}
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
		t.Fatal(fmt.Errorf("%s: %w", path, err))
	}
	return rows
}
