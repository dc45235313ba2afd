// Package workload generates deterministic synthetic header workloads for
// tests, benchmarks and the CLI: gRPC calls (requests, response headers and
// trailers) and browser-like HTTP/2 traffic.
//
// The output depends only on the arguments: the same n and seed always give
// the same header lists (math/rand/v2's PCG, no map iteration, no clock), and
// a shorter workload is a prefix of a longer one with the same seed. All
// header names are lowercase; all values are printable ASCII.
package workload

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/metapack/metapack/internal/story"
)

// rng wraps a PCG-seeded generator with the helpers the generators share.
type rng struct{ *rand.Rand }

// newRNG returns a generator for seed; stream separates the workloads so
// that GRPC and Browser with the same seed are unrelated.
func newRNG(seed, stream uint64) rng {
	return rng{rand.New(rand.NewPCG(seed, stream^0x6d65746170616b21))}
}

func (r rng) chance(p float64) bool { return r.Float64() < p }

func (r rng) pick(xs []string) string { return xs[r.IntN(len(xs))] }

// between returns a uniform int in [lo, hi].
func (r rng) between(lo, hi int) int { return lo + r.IntN(hi-lo+1) }

func (r rng) bytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func (r rng) hex(nbytes int) string { return hex.EncodeToString(r.bytes(nbytes)) }

const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

func (r rng) alnum(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alnum[r.IntN(len(alnum))]
	}
	return string(b)
}

// uuid returns a random (version 4) UUID in its text form.
func (r rng) uuid() string {
	b := r.bytes(16)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b)
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// weighted picks an index with probability proportional to its weight.
type weighted []float64 // cumulative weights

func newWeighted(ws ...float64) weighted {
	cum := make(weighted, len(ws))
	sum := 0.0
	for i, w := range ws {
		sum += w
		cum[i] = sum
	}
	return cum
}

func (w weighted) pick(r rng) int {
	x := r.Float64() * w[len(w)-1]
	for i, c := range w {
		if x < c {
			return i
		}
	}
	return len(w) - 1
}

// list builds one header list.
type list []story.Header

func (l *list) add(name, value string) { *l = append(*l, story.Header{Name: name, Value: value}) }

// httpDate formats t as an HTTP date (RFC 9110 IMF-fixdate).
func httpDate(t time.Time) string { return t.UTC().Format("Mon, 02 Jan 2006 15:04:05 GMT") }

// b64 encodes binary metadata the way gRPC sends "-bin" values: standard
// base64 without padding.
func b64(b []byte) string { return base64.RawStdEncoding.EncodeToString(b) }

func b64url(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// percentEncode encodes a grpc-message value as the gRPC HTTP/2 protocol
// spec says: bytes outside 0x20-0x7E, and '%', become %XX.
func percentEncode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e || c == '%' {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// toStory wraps header lists as a story: one case per list, headers only,
// with the default header table size announced on the first case.
func toStory(description string, lists [][]story.Header) *story.Story {
	s := &story.Story{Description: description, Cases: make([]story.Case, len(lists))}
	for i, hs := range lists {
		s.Cases[i] = story.Case{Seqno: i, Headers: hs, HeaderTableSize: -1, DynamicTableSize: -1}
	}
	if len(s.Cases) > 0 {
		s.Cases[0].HeaderTableSize = story.DefaultHeaderTableSize
	}
	return s
}
