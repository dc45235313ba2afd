//go:build nghttp2

package nghttp2

import (
	"fmt"
	"testing"

	"github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/interop/nghttp2/hd"
)

// limits are the encoders' own caps on their tables: the default, under
// which growing the setting past 4096 changes nothing, and one that
// follows every setting in tableSizes.
var limits = []uint32{hpack.DefaultTableSize, 65536}

// oursToNghttp2 sends steps from hpack.NewEncoder(initial), capped at
// limit, to nghttp2's inflater and to our Decoder, both of which advertise
// initial before the first block.
func oursToNghttp2(t *testing.T, initial, limit uint32, steps []step) []snapshot {
	t.Helper()
	enc, err := newOurEncoder(initial, limit)
	if err != nil {
		t.Fatalf("NewEncoder(%d), limit %d: %v", initial, limit, err)
	}
	inf := newInflater(t)
	if err := inf.settings(initial); err != nil {
		t.Fatal(err)
	}
	dec, err := newOurDecoder(initial, false)
	if err != nil {
		t.Fatalf("NewDecoder(4096), SetAllowedMaxDynamicTableSize(%d): %v", initial, err)
	}
	return run(t, enc, []decSide{inf, dec}, steps)
}

// deflaterSetup says how nghttp2's deflater and our Decoder start.
type deflaterSetup struct {
	max uint32 // nghttp2_hd_deflate_new's max_deflate_dynamic_table_size
	// initial, when announce is set, is the SETTINGS_HEADER_TABLE_SIZE
	// advertised before the first block; otherwise it stays 4096.
	initial  uint32
	announce bool
	// direct makes our decoder hpack.NewDecoder(initial) instead of
	// NewDecoder(4096) then SetAllowedMaxDynamicTableSize(initial).
	direct bool
}

func (s deflaterSetup) String() string {
	str := fmt.Sprintf("deflate_new(%d)", s.max)
	if s.announce {
		str += fmt.Sprintf(",settings=%d", s.initial)
	}
	if s.direct {
		str += ",NewDecoder(initial)"
	}
	return str
}

// nghttp2ToOurs sends steps from nghttp2's deflater to our Decoder and to
// nghttp2's inflater.
func nghttp2ToOurs(t *testing.T, setup deflaterSetup, steps []step) []snapshot {
	t.Helper()
	def := newDeflater(t, setup.max)
	inf := newInflater(t)
	initial := uint32(hpack.DefaultTableSize)
	if setup.announce {
		initial = setup.initial
		if err := def.settings(initial); err != nil {
			t.Fatal(err)
		}
		if err := inf.settings(initial); err != nil {
			t.Fatal(err)
		}
	}
	dec, err := newOurDecoder(initial, setup.direct)
	if err != nil {
		t.Fatalf("our decoder for %v: %v", setup, err)
	}
	return run(t, def, []decSide{dec, inf}, steps)
}

// randomSteps makes 1 to 200 blocks of random lists, with random settings
// changes before some of them (the first included).
func randomSteps(seed uint64) []step {
	g := newGen(seed)
	steps := make([]step, 1+g.r.IntN(200))
	for i := range steps {
		steps[i] = step{settings: g.settings(), list: g.list(24)}
	}
	return steps
}

const randomSeeds = 64

// TestOursToNghttp2Random encodes random sequences of header lists with
// hpack.Encoder, with SETTINGS changes between blocks, and decodes them
// with nghttp2's inflater and our Decoder.
func TestOursToNghttp2Random(t *testing.T) {
	for seed := range uint64(randomSeeds) {
		limit := limits[seed%2]
		t.Run(fmt.Sprintf("seed=%d,limit=%d", seed, limit), func(t *testing.T) {
			oursToNghttp2(t, hpack.DefaultTableSize, limit, randomSteps(seed))
		})
	}
}

// TestNghttp2ToOursRandom encodes random sequences of header lists with
// nghttp2's deflater, with SETTINGS changes between blocks, and decodes
// them with our Decoder and nghttp2's inflater.
func TestNghttp2ToOursRandom(t *testing.T) {
	for seed := range uint64(randomSeeds) {
		setup := deflaterSetup{max: limits[seed%2]}
		t.Run(fmt.Sprintf("seed=%d,%v", seed, setup), func(t *testing.T) {
			nghttp2ToOurs(t, setup, randomSteps(1000+seed))
		})
	}
}

// sizeScripts are SETTINGS_HEADER_TABLE_SIZE changes, one entry per pair
// of blocks: the changes, then a block that must signal them and a block
// that uses the table.
var sizeScripts = []struct {
	name    string
	changes [][]uint32
}{
	{"before the first block: 256", [][]uint32{{256}}},
	{"before the first block: 0", [][]uint32{{0}}},
	{"before the first block: 65536", [][]uint32{{65536}}},
	{"before the first block: two", [][]uint32{{100, 16384}}},
	{"before the first block: 4096 and 0", [][]uint32{{4096, 0}}},
	{"shrinking", [][]uint32{nil, {16384}, {4096}, {256}, {100}, {33}, {32}, {31}, {1}, {0}}},
	{"growing", [][]uint32{{0}, {1}, {31}, {32}, {33}, {100}, {256}, {4096}, {16384}, {65536}}},
	{"shrinking and growing", [][]uint32{nil, {100}, {16384}, {31}, {65536}, {0}, {4096}, {33}, {256}, {32}}},
	{"two: down then back", [][]uint32{nil, {0, 4096}, {100, 4096}}},
	{"two: up then down", [][]uint32{nil, {65536, 32}, {16384, 256}}},
	{"two: both down", [][]uint32{nil, {256, 33}, {31, 1}}},
	{"two: down then past", [][]uint32{nil, {1, 65536}, {33, 16384}}},
	{"two: the same twice", [][]uint32{nil, {100, 100}, {4096, 4096}}},
	{"two between every pair", [][]uint32{{100, 4096}, {0, 256}, {16384, 33}, {32, 65536}, {1, 1}, {31, 4096}}},
	{"three between a pair", [][]uint32{nil, {256, 0, 4096}, {65536, 31, 100}}},
	{"to 0 and back, repeatedly", [][]uint32{nil, {0}, nil, {4096}, {0}, {65536}, {0}, nil}},
	{"no-op changes", [][]uint32{nil, {4096}, {4096}, {65536}, {65536}}},
}

// scriptSteps turns a script into steps with random lists.
func scriptSteps(seed uint64, changes [][]uint32) []step {
	g := newGen(seed)
	var steps []step
	for _, c := range changes {
		steps = append(steps, step{settings: c, list: g.list(12)}, step{list: g.list(12)})
	}
	return steps
}

// TestTableSizeChanges runs each script in both directions, under each
// encoder cap.
func TestTableSizeChanges(t *testing.T) {
	for i, sc := range sizeScripts {
		for _, limit := range limits {
			t.Run(fmt.Sprintf("%s/ours-to-nghttp2,limit=%d", sc.name, limit), func(t *testing.T) {
				oursToNghttp2(t, hpack.DefaultTableSize, limit, scriptSteps(uint64(i), sc.changes))
			})
			setup := deflaterSetup{max: limit}
			t.Run(fmt.Sprintf("%s/nghttp2-to-ours,%v", sc.name, setup), func(t *testing.T) {
				nghttp2ToOurs(t, setup, scriptSteps(uint64(i), sc.changes))
			})
		}
	}
}

// initialSteps are the blocks after an encoder starts at a size other
// than 4096: a few, then a change back to 4096 and a few more.
func initialSteps(seed uint64) []step {
	g := newGen(seed)
	steps := []step{{list: g.list(12)}, {list: g.list(12)}, {list: g.list(12)}}
	steps = append(steps, step{settings: []uint32{hpack.DefaultTableSize}, list: g.list(12)}, step{list: g.list(12)})
	return steps
}

// TestInitialTableSize starts encoders at each table size. HTTP/2 tables
// start at 4096, so an encoder told of a peer's other SETTINGS value from
// the start must signal the size it uses in its first block when that is
// not 4096, and only then.
func TestInitialTableSize(t *testing.T) {
	for i, size := range tableSizes {
		for _, limit := range limits {
			t.Run(fmt.Sprintf("NewEncoder(%d),limit=%d", size, limit), func(t *testing.T) {
				oursToNghttp2(t, size, limit, initialSteps(uint64(i)))
			})
			for _, setup := range []deflaterSetup{
				{max: limit, initial: size, announce: true},
				{max: limit, initial: size, announce: true, direct: true},
			} {
				t.Run(setup.String(), func(t *testing.T) {
					nghttp2ToOurs(t, setup, initialSteps(uint64(i)))
				})
			}
		}
		setup := deflaterSetup{max: size}
		t.Run(setup.String(), func(t *testing.T) {
			nghttp2ToOurs(t, setup, initialSteps(uint64(i)))
		})
	}
}

// TestHugeTableSizes advertises SETTINGS_HEADER_TABLE_SIZE values of 2^31
// and more, which HTTP/2 allows (the setting is 32 bits); the encoders keep
// their own caps.
func TestHugeTableSizes(t *testing.T) {
	for _, size := range []uint32{1 << 31, 1<<32 - 1} {
		changes := [][]uint32{{size}, {100}, {size}, {0, size}}
		for _, limit := range limits {
			t.Run(fmt.Sprintf("ours-to-nghttp2,settings=%d,limit=%d", size, limit), func(t *testing.T) {
				oursToNghttp2(t, hpack.DefaultTableSize, limit, scriptSteps(uint64(size), changes))
			})
			for _, setup := range []deflaterSetup{
				{max: limit},
				{max: limit, initial: size, announce: true, direct: true},
			} {
				t.Run(fmt.Sprintf("nghttp2-to-ours,settings=%d,%v", size, setup), func(t *testing.T) {
					nghttp2ToOurs(t, setup, scriptSteps(uint64(size), changes))
				})
			}
		}
	}
}

// TestSensitiveNeverIndexed sends lists whose every field is sensitive,
// after a block of the same fields sent plainly (which may index them):
// each must arrive never-indexed, even when it is in a table, and the
// dynamic tables must not change.
func TestSensitiveNeverIndexed(t *testing.T) {
	long := string(make([]byte, 1000))
	tests := []struct {
		name   string
		fields []hd.Field
	}{
		{"static entry", []hd.Field{{Name: ":method", Value: "GET"}, {Name: ":path", Value: "/"}}},
		{"static name", []hd.Field{{Name: "content-type", Value: "application/grpc"}, {Name: ":path", Value: "/secret"}}},
		{"new name", []hd.Field{{Name: "x-secret", Value: "s3cr3t"}}},
		{"gRPC name", []hd.Field{{Name: "grpc-trace-bin", Value: "\x00\x01\x02\xff"}}},
		{"empty value", []hd.Field{{Name: "x-empty", Value: ""}, {Name: "accept", Value: ""}}},
		{"long value", []hd.Field{{Name: "x-long", Value: long}}},
		{"authorization", []hd.Field{{Name: "authorization", Value: "Bearer abc"}}},
		{"cookie", []hd.Field{{Name: "cookie", Value: "a=b; c=dddddddddddddddddddddddddd"}}},
		{"repeated", []hd.Field{{Name: "x-token", Value: "t"}, {Name: "x-token", Value: "t"}, {Name: "x-token", Value: "t"}}},
	}
	for _, tt := range tests {
		plain := append([]hd.Field(nil), tt.fields...)
		sensitive := append([]hd.Field(nil), tt.fields...)
		for i := range sensitive {
			sensitive[i].NoIndex = true
		}
		// The plain block twice, so that a second sighting indexes.
		steps := []step{{list: plain}, {list: plain}, {list: sensitive}, {list: sensitive}}
		check := func(t *testing.T, snaps []snapshot) {
			for i := 2; i < len(snaps); i++ {
				if !snaps[i].equal(snaps[1]) {
					t.Errorf("block %d of sensitive fields changed the table from %v to %v", i, snaps[1], snaps[i])
				}
			}
		}
		for _, limit := range limits {
			t.Run(fmt.Sprintf("%s/ours-to-nghttp2,limit=%d", tt.name, limit), func(t *testing.T) {
				check(t, oursToNghttp2(t, hpack.DefaultTableSize, limit, steps))
			})
			setup := deflaterSetup{max: limit}
			t.Run(fmt.Sprintf("%s/nghttp2-to-ours,%v", tt.name, setup), func(t *testing.T) {
				check(t, nghttp2ToOurs(t, setup, steps))
			})
		}
	}
}
