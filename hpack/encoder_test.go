package hpack

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"

	xhpack "golang.org/x/net/http2/hpack"

	"github.com/metapack/metapack/internal/inlinecheck"
	"github.com/metapack/metapack/internal/story"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

func TestEncoderInlining(t *testing.T) {
	inlinecheck.Check(t, ".",
		"cacheable",
	)
}

// encField1 returns a one-field batch.
func encField1(name, value string, sensitive bool) *mdelem.Batch {
	f := mdelem.From(mdelem.BorrowString(name), mdelem.BorrowString(value))
	b := mdelem.NewBatch(1, 0)
	b.Append(f.WithSensitive(sensitive))
	return b
}

// encXnetDecode decodes block with a fresh x/net decoder of table size
// 4096.
func encXnetDecode(t *testing.T, block []byte) []xhpack.HeaderField {
	t.Helper()
	fs, err := xhpack.NewDecoder(4096, nil).DecodeFull(block)
	if err != nil {
		t.Fatalf("x/net: %v (block %x)", err, block)
	}
	return fs
}

// TestEncoderRepresentations pins the bytes of single fields on a fresh
// Encoder.
func TestEncoderRepresentations(t *testing.T) {
	long := strings.Repeat("x", 40)
	for _, tc := range []struct {
		name, value string
		sensitive   bool
		want        string // hex
	}{
		{":method", "GET", false, "82"},                                                 // static index 2
		{":status", "404", false, "8d"},                                                 // static index 13
		{":method", "GET", true, "12" + "03474554"},                                     // sensitive: never-indexed with name index 2; Huffman "GET" is no shorter
		{"authorization", "t", false, "1f08" + "0174"},                                  // never-indexed, name index 23 (4-bit prefix: 15+8)
		{"proxy-authorization", "t", false, "1f22" + "0174"},                            // name index 49
		{"cookie", "a=b", false, "1f11" + "03613d62"},                                   // short cookie: never-indexed
		{"cookie", long, false, "60" + "a3" + strings.Repeat("f3e7cf9f3e7cf9", 5)[:70]}, // long cookie, fresh name: indexed
		{"x-a", "\x00\x01", false, "40" + "03782d61" + "020001"},                        // new name: indexed; raw strings (Huffman is no shorter)
		{":path", "/a", false, "44" + "022f61"},                                         // fresh name: indexed at first sight
	} {
		e := NewEncoder(DefaultTableSize)
		got := e.AppendBlock(nil, encField1(tc.name, tc.value, tc.sensitive))
		if hex.EncodeToString(got) != tc.want {
			t.Errorf("%q: %q (sensitive %v): got %x, want %s", tc.name, tc.value, tc.sensitive, got, tc.want)
		}
		fs := encXnetDecode(t, got)
		if len(fs) != 1 || fs[0].Name != tc.name || fs[0].Value != tc.value {
			t.Errorf("%q: %q: x/net decodes %v", tc.name, tc.value, fs)
		}
	}
}

// TestEncoderNeverIndexed checks that fields marked sensitive, and those
// the default policy never indexes, come out Sensitive from x/net.
func TestEncoderNeverIndexed(t *testing.T) {
	for _, tc := range []struct {
		name, value string
		sensitive   bool
	}{
		{"x-secret", "s3cr3t", true},
		{":method", "GET", true}, // even a static match
		{"authorization", "Bearer abc", false},
		{"proxy-authorization", "Basic abc", false},
		{"cookie", "id=1234567890123456", false}, // 19 bytes
	} {
		e := NewEncoder(DefaultTableSize)
		for i := range 3 { // repeats stay literal
			block := e.AppendBlock(nil, encField1(tc.name, tc.value, tc.sensitive))
			fs := encXnetDecode(t, block)
			if len(fs) != 1 || !fs[0].Sensitive || fs[0].Value != tc.value {
				t.Errorf("%s (sight %d): x/net decodes %+v, want it sensitive", tc.name, i, fs)
			}
		}
		if n := e.dynamicTableLen(); n != 0 {
			t.Errorf("%s: the dynamic table has %d entries, want none", tc.name, n)
		}
	}
}

// TestEncoderSecondSighting checks the default policy for a name whose
// values have not been repeating: a new value is not indexed at first, is
// indexed on its second sighting, then sent as an index.
func TestEncoderSecondSighting(t *testing.T) {
	e := NewEncoder(DefaultTableSize)
	e.AppendBlock(nil, encField1("user-agent", "one", false))
	e.AppendBlock(nil, encField1("user-agent", "two", false))
	b := encField1("user-agent", "curl/8", false)
	var firsts []byte
	for range 3 {
		block := e.AppendBlock(nil, b)
		firsts = append(firsts, block[0])
	}
	// user-agent is static index 58: 0x0f 0x2b without indexing, 0x40|58
	// with; then the newest dynamic entry, 62.
	if want := []byte{0x0f, 0x7a, 0xbe}; !bytes.Equal(firsts, want) {
		t.Errorf("first bytes %x, want %x", firsts, want)
	}
}

// TestEncoderLargeNotIndexed checks the 3/4 rule.
func TestEncoderLargeNotIndexed(t *testing.T) {
	e := NewEncoder(256)
	e.SetMaxDynamicTableSizeLimit(256)
	big := strings.Repeat("v", 256*3/4-32-len("x-big")+1)
	for range 3 {
		e.AppendBlock(nil, encField1("x-big", big, false))
	}
	if n := e.dynamicTableLen(); n != 0 {
		t.Errorf("a field over 3/4 of the table was indexed (%d entries)", n)
	}
	ok := big[1:]
	for range 3 {
		e.AppendBlock(nil, encField1("x-big", ok, false))
	}
	if n := e.dynamicTableLen(); n != 1 {
		t.Errorf("a field of 3/4 of the table: %d entries, want 1", n)
	}
}

// TestEncoderPolicy checks custom policies.
func TestEncoderPolicy(t *testing.T) {
	b := encBatch([]story.Header{{Name: "x-a", Value: "1"}, {Name: "x-b", Value: "2"}, {Name: "cookie", Value: "k=v"}})
	e := policyEncoder{NewEncoder(DefaultTableSize), func(mdelem.Field) indexing { return indexNone }}
	e.AppendBlock(nil, b)
	e.AppendBlock(nil, b)
	if n := e.dynamicTableLen(); n != 0 {
		t.Errorf("indexNone: %d entries", n)
	}
	e.policy = func(f mdelem.Field) indexing {
		if f.Name.UnsafeString() == "x-a" {
			return indexNever
		}
		return indexIncremental
	}
	block := e.AppendBlock(nil, b)
	fs := encXnetDecode(t, block)
	if !fs[0].Sensitive || fs[1].Sensitive || fs[2].Sensitive {
		t.Errorf("sensitivity %v %v %v, want true false false (indexNever, indexIncremental, the short-cookie rule overridden)", fs[0].Sensitive, fs[1].Sensitive, fs[2].Sensitive)
	}
	// indexIncremental overrides the short-cookie rule: the policy is
	// asked first.
	if n := e.dynamicTableLen(); n != 2 {
		t.Errorf("indexIncremental: %d entries, want 2", n)
	}
	e.policy = nil
	if got := e.AppendBlock(nil, encField1("x-b", "2", false)); len(got) != 1 {
		t.Errorf("default policy again: got %x, want a one-byte index", got)
	}
}

// TestEncoderFirstBlockSizeUpdate checks the size updates of a new
// Encoder's first block: the peer's decoder starts at HTTP/2's 4096, so the
// first block must bring it to the size the encoder uses when that
// differs, with one update, and say nothing otherwise.
func TestEncoderFirstBlockSizeUpdate(t *testing.T) {
	update := func(v uint64) string { return hex.EncodeToString(appendInt(nil, reprSizeUpdate, 5, v)) }
	for _, tc := range []struct {
		peer, limit uint32
		want        string
	}{
		{0, 4096, update(0)},
		{1, 4096, update(1)},
		{100, 4096, update(100)},
		{4095, 4096, update(4095)},
		{4096, 4096, ""},
		{16384, 4096, ""},
		{16384, 16384, update(16384)},
		{65536, 16384, update(16384)},
		{1<<32 - 1, 1<<32 - 1, update(maxTableSizeLimit)},
	} {
		e := NewEncoder(tc.peer)
		e.SetMaxDynamicTableSizeLimit(tc.limit)
		block := e.AppendBlock(nil, mdelem.NewBatch(0, 0))
		if got := hex.EncodeToString(block); got != tc.want {
			t.Errorf("NewEncoder(%d), limit %d: first block %s, want %s", tc.peer, tc.limit, got, tc.want)
		}
		// A decoder that advertised the same size accepts it.
		d := NewDecoder(tc.peer)
		if tc.peer < DefaultTableSize {
			d = NewDecoder(DefaultTableSize)
			d.SetAllowedMaxDynamicTableSize(tc.peer)
		}
		if err := d.Decode(mdelem.NewBatch(0, 0), block); err != nil {
			t.Errorf("NewEncoder(%d), limit %d: our decoder rejects the first block %x: %v", tc.peer, tc.limit, block, err)
		}
	}
}

// TestEncoderSizeUpdates pins the size updates at the start of blocks.
func TestEncoderSizeUpdates(t *testing.T) {
	empty := mdelem.NewBatch(0, 0)
	for _, tc := range []struct {
		name    string
		peer    uint32
		limit   uint32
		changes []uint32
		want    string // hex of the next block (empty batch)
	}{
		{"none", 4096, 4096, nil, ""},
		// The peer's decoder starts at 4096 whatever it advertises, so
		// a limit of 4096 needs no update.
		{"peer above our limit", 65536, 4096, nil, ""},
		{"lower", 4096, 4096, []uint32{1024}, "3fe107"},
		{"down and up", 4096, 4096, []uint32{0, 2048}, "203fe10f"},
		{"up only", 4096, 8192, []uint32{8192}, "3fe13f"},
		{"up and back", 4096, 8192, []uint32{8192, 4096}, ""},
		{"equal lowest and final", 4096, 4096, []uint32{100, 100}, "3f45"},
		{"lowest, final", 4096, 4096, []uint32{512, 256, 2048}, "3fe1013fe10f"},
	} {
		e := NewEncoder(tc.peer)
		e.SetMaxDynamicTableSizeLimit(tc.limit)
		if tc.peer != tc.limit || len(tc.changes) > 0 {
			e.AppendBlock(nil, empty) // flush the initial update
		}
		if tc.name == "peer above our limit" {
			e.Reset()
		}
		for _, v := range tc.changes {
			e.SetMaxDynamicTableSize(v)
		}
		got := hex.EncodeToString(e.AppendBlock(nil, empty))
		if got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, got, tc.want)
		}
		if again := e.AppendBlock(nil, empty); len(again) != 0 {
			t.Errorf("%s: second block %x, want empty", tc.name, again)
		}
	}
}

// TestEncoderSizeUpdateWithEntries checks the x/net-compatible form of two
// updates: when entries would survive the lowest size, the first update is
// 0.
func TestEncoderSizeUpdateWithEntries(t *testing.T) {
	e := NewEncoder(4096)
	p := newEncPeer(4096)
	hs := []story.Header{{Name: "x-a", Value: "1"}}
	block := e.AppendBlock(nil, encBatch(hs))
	p.check(t, "first", e, block, encWant(hs))
	p.setTableSize(e, 256)
	p.setTableSize(e, 4096)
	block = e.AppendBlock(nil, encBatch(hs))
	if !bytes.HasPrefix(block, []byte{0x20, 0x3f, 0xe1, 0x1f}) {
		t.Errorf("block %x, want updates 0 then 4096", block)
	}
	p.check(t, "after", e, block, encWant(hs))
}

// TestEncoderReset checks that a Reset Encoder encodes as a new one.
func TestEncoderReset(t *testing.T) {
	lists := workloadLists()
	e := NewEncoder(DefaultTableSize)
	var first, again []byte
	for _, b := range lists {
		first = e.AppendBlock(first, b)
	}
	e.Reset()
	for _, b := range lists {
		again = e.AppendBlock(again, b)
	}
	if !bytes.Equal(first, again) {
		t.Error("a Reset Encoder encodes differently from a new one")
	}
}

func workloadLists() []*mdelem.Batch { return encBatches(encGRPCStory()[:60]) }

// TestEncoderNoAllocs checks the steady state: once the encoder's and the
// buffer's capacities have grown, encoding allocates nothing.
func TestEncoderNoAllocs(t *testing.T) {
	if encPureGo {
		t.Skip("under purego, mdelem.Str.UnsafeString copies the bytes of every string that is not an atom")
	}
	lists := workloadLists()
	e := NewEncoder(DefaultTableSize)
	var buf []byte
	run := func() {
		e.Reset()
		for _, b := range lists {
			buf = e.AppendBlock(buf[:0], b)
		}
	}
	run()
	if n := testing.AllocsPerRun(20, run); n != 0 {
		t.Errorf("%v allocations per run, want 0", n)
	}
}

// TestEncoderAtoms checks that atoms (static and interned-like values)
// find the same entries as bytes.
func TestEncoderAtoms(t *testing.T) {
	e := NewEncoder(DefaultTableSize)
	gzip := staticdata.Lookup("gzip")
	asBytes := encField1("grpc-encoding", "gzip", false)
	asAtom := mdelem.NewBatch(1, 0)
	asAtom.Append(mdelem.From(staticdata.KeyGrpcEncoding.Atom(), gzip))
	e.AppendBlock(nil, asBytes)
	e.AppendBlock(nil, asBytes) // indexed now
	if got := e.AppendBlock(nil, asAtom); len(got) != 1 || got[0] != 0x80|dynIndexBase {
		t.Errorf("the atom form: got %x, want index %d", got, dynIndexBase)
	}
}

// TestEncoderTableCapacity checks that raising the limit keeps entries.
func TestEncoderTableCapacity(t *testing.T) {
	e := NewEncoder(65536)
	p := newEncPeer(65536)
	var buf []byte
	hs := []story.Header{{Name: "x-a", Value: "1"}, {Name: "x-b", Value: strings.Repeat("b", 100)}}
	buf = e.AppendBlock(buf[:0], encBatch(hs))
	p.check(t, "before", e, buf, encWant(hs))
	e.SetMaxDynamicTableSizeLimit(65536)
	buf = e.AppendBlock(buf[:0], encBatch(hs))
	p.check(t, "after", e, buf, encWant(hs))
	if e.dynamicTableLen() != 2 {
		t.Errorf("%d entries, want 2", e.dynamicTableLen())
	}
}
