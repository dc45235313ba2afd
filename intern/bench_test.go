package intern

import (
	"strings"
	"sync"
	"testing"
	"unique"

	"github.com/metapack/metapack/staticdata"
)

// sinkInt keeps results alive. Benchmarks write it once, at the end, so that
// parallel goroutines share no written cache line.
var sinkInt int

// benchStrings are the strings the hit benchmarks intern. The sized ones are
// not in the static tier, so they measure the table.
var benchStrings = []struct{ name, s string }{
	{"size=12B", "x-request-as"},
	{"size=40B", "grpc-go/1.72.0 (linux; amd64) custom/3.1"},
	{"size=static", "content-type"},
}

func checkBenchString(b *testing.B, name, s string) {
	b.Helper()
	_, static := Lookup(nil, s)
	switch {
	case name == "size=static" && !static:
		b.Fatalf("%q is not a static-tier string", s)
	case name != "size=static" && (static || name != "size="+itoa(len(s))+"B"):
		b.Fatalf("%s: %q is %d bytes, static %v", name, s, len(s), static)
	}
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		if n /= 10; n == 0 {
			return string(b[i:])
		}
	}
}

var hitImpls = []string{"impl=metapack", "impl=unique", "impl=syncmap"}

// hitLoop interns buf with impl until next reports false, as a decoder
// would, and returns how many calls hit. Each implementation has been warmed
// up with s, so the loop measures hits. Each has its own loop, so that no
// implementation pays for an indirect call.
func hitLoop(impl, s string, buf []byte, next func() bool) int {
	n := 0
	switch impl {
	case "impl=metapack":
		tbl := New(Limits{})
		if _, ok := Make(tbl, s); !ok {
			panic("not interned: " + s)
		}
		for next() {
			if h, ok := Make(tbl, buf); ok && len(h.Atom().String()) == len(buf) {
				n++
			}
		}
	case "impl=unique":
		unique.Make(strings.Clone(s))
		for next() {
			if h := unique.Make(string(buf)); len(h.Value()) == len(buf) {
				n++
			}
		}
	case "impl=syncmap":
		var m sync.Map
		m.Store(strings.Clone(s), strings.Clone(s))
		for next() {
			if v, ok := m.Load(string(buf)); ok && len(v.(string)) == len(buf) {
				n++
			}
		}
	default:
		panic(impl)
	}
	return n
}

func BenchmarkHit(b *testing.B) {
	for _, bs := range benchStrings {
		b.Run(bs.name, func(b *testing.B) {
			checkBenchString(b, bs.name, bs.s)
			for _, impl := range hitImpls {
				b.Run(impl, func(b *testing.B) {
					buf := []byte(bs.s)
					b.SetBytes(int64(len(buf)))
					b.ReportAllocs()
					sinkInt = hitLoop(impl, bs.s, buf, b.Loop)
				})
			}
		})
	}
}

func BenchmarkHitParallel(b *testing.B) {
	for _, bs := range benchStrings {
		b.Run(bs.name, func(b *testing.B) {
			checkBenchString(b, bs.name, bs.s)
			for _, impl := range hitImpls {
				b.Run(impl, func(b *testing.B) {
					b.SetBytes(int64(len(bs.s)))
					b.ReportAllocs()
					b.RunParallel(func(pb *testing.PB) {
						buf := []byte(bs.s) // each decoder has its own buffer
						if hitLoop(impl, bs.s, buf, pb.Next) == -1 {
							panic("unreachable")
						}
					})
				})
			}
		})
	}
}

// BenchmarkMissFull measures a string that is not interned, looked up in a
// full table, as under a flood of distinct strings.
func BenchmarkMissFull(b *testing.B) {
	tbl := New(Limits{MaxEntries: 1024, MaxBytes: 1 << 20, MaxLen: 64})
	buf := []byte("x-attacker-0000000000-padding-to-40-byte")
	for i := 0; tbl.Len() < 1024; i++ {
		putDigits(buf[11:21], i)
		Make(tbl, buf)
	}
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	i := 1 << 20
	for b.Loop() {
		putDigits(buf[11:21], i)
		i++
		if _, ok := Make(tbl, buf); ok {
			b.Fatal("interned into a full table")
		}
	}
}

// BenchmarkHandleEqual compares two handles, equal half of the time.
func BenchmarkHandleEqual(b *testing.B) {
	tbl := New(Limits{})
	x, _ := Make(tbl, "x-request-as")
	y, _ := Make(tbl, "x-request-at")
	hs := [4]Handle{x, y, {staticdata.KeyPath.Atom()}, x}
	b.ReportAllocs()
	n := 0
	for i := 0; i < b.N; i++ {
		if hs[i&3] == x {
			n++
		}
	}
	sinkInt = n
}
