//go:build nghttp2

package nghttp2

import (
	"math/rand/v2"

	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/interop/nghttp2/hd"
)

// tableSizes are the SETTINGS_HEADER_TABLE_SIZE values the tests move
// between: around the 32-byte entry overhead, small, HTTP/2's default and
// large.
var tableSizes = []uint32{0, 1, 31, 32, 33, 100, 256, 4096, 16384, 65536}

// grpcNames are header names a gRPC peer sends, some of which are in no
// RFC 7541 table.
var grpcNames = []string{
	"grpc-status", "grpc-message", "grpc-timeout", "grpc-encoding",
	"grpc-accept-encoding", "grpc-status-details-bin", "grpc-trace-bin",
	"grpc-tags-bin", "grpc-previous-rpc-attempts", "grpc-retry-pushback-ms",
	"content-type", "te", "user-agent", "authorization", "cookie",
	"x-request-id", "traceparent",
}

// gen makes random header lists. It remembers the fields it made, and
// repeats them often, so that the dynamic table is hit, refreshed and
// evicted.
type gen struct {
	r    *rand.Rand
	seen []hd.Field
}

func newGen(seed uint64) *gen {
	return &gen{r: rand.New(rand.NewPCG(seed, 0x6e676874747032))}
}

const lower = "abcdefghijklmnopqrstuvwxyz"

func (g *gen) text(n int, alphabet string) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[g.r.IntN(len(alphabet))]
	}
	return string(b)
}

func (g *gen) name() string {
	switch p := g.r.IntN(100); {
	case p < 35:
		e, _ := tier.EntryAt(1 + g.r.IntN(tier.TableLen))
		return e.Name.String()
	case p < 60:
		return grpcNames[g.r.IntN(len(grpcNames))]
	default:
		return g.text(1, lower) + g.text(g.r.IntN(24), lower+"0123456789-_.")
	}
}

const printable = " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~"

func (g *gen) value() string {
	switch p := g.r.IntN(100); {
	case p < 15:
		return ""
	case p < 50:
		return g.text(1+g.r.IntN(16), printable)
	case p < 58:
		return g.text(256+g.r.IntN(3800), printable) // long: large entries, evictions
	case p < 73:
		b := make([]byte, 1+g.r.IntN(64)) // any byte: Huffman's long codes
		for i := range b {
			b[i] = byte(g.r.UintN(256))
		}
		return string(b)
	case p < 85:
		e, _ := tier.EntryAt(1 + g.r.IntN(tier.TableLen))
		return e.Value.String()
	default:
		return g.text(1+g.r.IntN(8), "0123456789")
	}
}

// field makes one field: a repeat of an earlier one, a static-table entry,
// or a new name and value; about 1 in 16 is sensitive.
func (g *gen) field() hd.Field {
	var f hd.Field
	switch p := g.r.IntN(100); {
	case p < 40 && len(g.seen) > 0:
		f = g.seen[g.r.IntN(len(g.seen))]
	case p < 50:
		e, _ := tier.EntryAt(1 + g.r.IntN(tier.TableLen))
		f = hd.Field{Name: e.Name.String(), Value: e.Value.String()}
	default:
		f = hd.Field{Name: g.name(), Value: g.value()}
	}
	f.NoIndex = g.r.IntN(16) == 0
	if len(g.seen) < 64 {
		g.seen = append(g.seen, f)
	} else {
		g.seen[g.r.IntN(len(g.seen))] = f
	}
	return f
}

// list makes a header list of 0 to maxFields fields.
func (g *gen) list(maxFields int) []hd.Field {
	l := make([]hd.Field, g.r.IntN(maxFields+1))
	for i := range l {
		l[i] = g.field()
	}
	return l
}

// settings picks the SETTINGS_HEADER_TABLE_SIZE changes before a block:
// mostly none, sometimes one, now and then two.
func (g *gen) settings() []uint32 {
	n := 0
	switch p := g.r.IntN(100); {
	case p < 8:
		n = 1
	case p < 12:
		n = 2
	}
	var s []uint32
	for range n {
		s = append(s, tableSizes[g.r.IntN(len(tableSizes))])
	}
	return s
}
